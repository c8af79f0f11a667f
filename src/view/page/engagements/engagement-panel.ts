/**
 * The selected entity's radios and engagements in the detail panel, and the burst colours in the legend. Every
 * piece of network text goes in through `textContent`, never as HTML.
 */
import type { PageEntities } from '../entities.js';
import { BURST_LEGEND } from './engagement-layers.js';
import { type PageEngagements, radioText, resultColour } from './engagements.js';

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`index.html lacks #${id}`);
  return element;
}

export class EngagementPanel {
  private readonly radios = byId('d-radios');
  private readonly radioList = byId('d-radio-list');
  private readonly history = byId('d-engagements');
  private readonly historyList = byId('d-engagement-list');
  private readonly frozen = byId('d-frozen');

  constructor() {
    const legend = byId('legend');
    for (const [name, result] of BURST_LEGEND) {
      const item = document.createElement('span');
      const dot = document.createElement('i');
      dot.style.background = `rgb(${resultColour(result).slice(0, 3).join(',')})`;
      item.append(dot, `burst: ${name}`);
      legend.append(item);
    }
  }

  /** The selected entity's radio and engagement lines as shown, and whether it is shown frozen (the test hook). */
  shown(): { radios: string[]; engagements: string[]; frozen: boolean } {
    const lines = (list: HTMLElement) => [...list.querySelectorAll('li')].map((li) => li.textContent ?? '');
    return { radios: lines(this.radioList), engagements: lines(this.historyList), frozen: !this.frozen.hidden };
  }

  /** Redraws the selected entity's radios and engagements (with the panel, a few times a second). */
  refresh(entities: PageEntities, slot: number, engagements: PageEngagements): void {
    const id = slot >= 0 && entities.table.active[slot] === 1 ? entities.ids[slot]! : null;
    this.frozen.hidden = id === null || entities.table.frozen[slot] !== 1;
    const radios = id === null ? [] : engagements.radiosOf(id);
    this.radios.hidden = radios.length === 0;
    this.radioList.replaceChildren(
      ...radios.map((radio) => {
        const item = document.createElement('li');
        item.textContent = radioText(radio);
        if (radio.transmitting) item.className = 'transmitting';
        return item;
      }),
    );
    const lines = id === null ? [] : engagements.historyOf(id);
    this.history.hidden = lines.length === 0;
    this.historyList.replaceChildren(
      ...lines.map((line) => {
        const item = document.createElement('li');
        item.textContent = line;
        return item;
      }),
    );
  }
}
