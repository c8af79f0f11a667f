/** The map's "fit to the entities" button, under the zoom buttons (a MapLibre control). */
import type { IControl } from 'maplibre-gl';

export class FitControl implements IControl {
  private container: HTMLElement | null = null;

  constructor(private readonly fit: () => void) {}

  onAdd(): HTMLElement {
    const container = document.createElement('div');
    container.className = 'maplibregl-ctrl maplibregl-ctrl-group';
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'fit-entities';
    button.className = 'reckon-fit';
    button.title = 'Fit to the entities';
    button.setAttribute('aria-label', 'Fit to the entities');
    button.addEventListener('click', () => this.fit());
    container.append(button);
    this.container = container;
    return container;
  }

  onRemove(): void {
    this.container?.remove();
    this.container = null;
  }
}
