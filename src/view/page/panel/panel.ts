/**
 * The side panel: counters, the feed filter, layer toggles, the entity list (sort, search by marking or id) and the
 * selected entity's details. Every piece of network text (markings) goes in through `textContent`, never as HTML.
 */
import { DR_ALGORITHM_NAMES } from '../../../dr/models/algorithm.js';
import type { CountersMessage, ViewFilter } from '../../protocol.js';
import type { PageEntities } from '../entities.js';
import { PDU_REASON_NAMES } from '../send-reasons.js';
import { wrapLongitude } from '../map/map-coordinates.js';
import { REASON_COLOURS } from '../map/layers.js';
import { affiliationOf } from '../map/symbols.js';
import { typeDetailRows, typeLabel, typeSearchText } from './entity-details.js';
import { pageNames } from '../names.js';
import { ListCandidates } from './list-candidates.js';

const FORCE_NAMES = ['other', 'friendly', 'opposing', 'neutral'];
/** One collator for every sort: `localeCompare` builds one per call. */
const collator = new Intl.Collator(undefined, { numeric: true });
/** Rows drawn in the list; more are counted, not drawn. */
const MAX_ROWS = 200;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`index.html lacks #${id}`);
  return element as T;
}

function checkedValues(containerId: string): number[] {
  return [...byId(containerId).querySelectorAll<HTMLInputElement>('input[type=checkbox]')]
    .filter((input) => input.checked)
    .map((input) => Number(input.value));
}

/** A list of the checked values, or null when all are checked (no restriction). */
function listFilter(containerId: string): number[] | null {
  const all = byId(containerId).querySelectorAll('input[type=checkbox]').length;
  const values = checkedValues(containerId);
  return values.length === all ? null : values;
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '–';
}

export interface PanelHooks {
  /** The filter changed in the form; `bbox` asks for the visible area. */
  filterChanged(): void;
  select(slot: number): void;
}

export class Panel {
  search = '';
  sort = 'marking';
  private readonly list = byId<HTMLUListElement>('list');
  private readonly listCount = byId('list-count');
  private readonly details = byId('details');
  private readonly detailTitle = byId('d-title');
  private readonly detailFields = byId('d-fields');
  private readonly truthSummary = byId('truth-summary');
  /** The selected entity's place: longitude°, latitude°, height m, heading°. */
  private readonly place = new Float64Array(4);
  private readonly candidates = new ListCandidates();

  constructor(hooks: PanelHooks) {
    for (const id of ['f-forces', 'f-domains']) byId(id).addEventListener('change', () => hooks.filterChanged());
    byId('f-bbox').addEventListener('change', () => hooks.filterChanged());
    byId<HTMLInputElement>('search').addEventListener('input', (event) => {
      this.search = (event.target as HTMLInputElement).value.trim().toLowerCase();
    });
    byId<HTMLSelectElement>('sort').addEventListener('change', (event) => {
      this.sort = (event.target as HTMLSelectElement).value;
    });
    this.list.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest('li');
      if (row !== null) hooks.select(Number(row.dataset['slot']));
    });
    const legend = byId('legend');
    PDU_REASON_NAMES.forEach((name, reason) => {
      const item = document.createElement('span');
      const dot = document.createElement('i');
      dot.style.background = `rgba(${REASON_COLOURS[reason]!.slice(0, 3).join(',')})`;
      item.append(dot, `PDU: ${name}`);
      legend.append(item);
    });
  }

  /** The form's filter; `bbox` is the caller's (the visible area) when "only the visible area" is checked. */
  filter(exercise: number | null, visibleBbox: [number, number, number, number] | null): ViewFilter {
    return {
      exercise,
      forces: listFilter('f-forces'),
      kinds: null,
      domains: listFilter('f-domains'),
      bbox: byId<HTMLInputElement>('f-bbox').checked ? visibleBbox : null,
    };
  }

  /**
   * Ticks the filter's boxes as a link gave them (absent: left as they are).
   * @returns whether anything was given.
   */
  setFilterInputs(view: {
    forces?: readonly number[] | null;
    domains?: readonly number[] | null;
    visibleArea?: boolean;
  }): boolean {
    const tick = (containerId: string, values: readonly number[] | null | undefined) => {
      if (values === undefined) return false;
      for (const input of byId(containerId).querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
        input.checked = values === null || values.includes(Number(input.value));
      }
      return true;
    };
    const forces = tick('f-forces', view.forces);
    const domains = tick('f-domains', view.domains);
    if (view.visibleArea !== undefined) byId<HTMLInputElement>('f-bbox').checked = view.visibleArea;
    return forces || domains || view.visibleArea !== undefined;
  }

  get wantsVisibleArea(): boolean {
    return byId<HTMLInputElement>('f-bbox').checked;
  }

  toggle(id: 'trails' | 'markers' | 'ghosts' | 'labels' | 'shots'): boolean {
    return byId<HTMLInputElement>(`t-${id}`).checked;
  }

  connection(state: string, reconnects: number): void {
    const element = byId('connection');
    element.className = `state ${state}`;
    element.textContent =
      state === 'open' ? 'connected' : state === 'connecting' ? `connecting… (${reconnects})` : 'disconnected';
  }

  counters(counters: CountersMessage | null, entities: number, frameMs: number, gridText: string): void {
    byId('c-entities').textContent = String(entities);
    // A few PDUs a second read as such (0.8, 2.4), not rounded to 0 or 1.
    byId('c-pdus').textContent =
      counters === null ? '–' : fixed(counters.pdusPerSecond, counters.pdusPerSecond < 10 ? 1 : 0);
    byId('c-bytes').textContent = counters === null ? '–' : fixed(counters.bytesPerSecond, 0);
    byId('c-skipped').textContent = counters === null ? '–' : String(counters.skipped);
    byId('c-frame').textContent = `${fixed(frameMs, 2)} ms`;
    byId('c-grid').textContent = gridText;
  }

  truth(text: string | null): void {
    this.truthSummary.hidden = text === null;
    this.truthSummary.textContent = text ?? '';
  }

  /**
   * Redraws the list and the details (a few times a second, not per frame).
   * @param inView - the readable entities in view, which the list shows when there are too many to list all.
   */
  refresh(
    entities: PageEntities,
    nowSeconds: number,
    selectedSlot: number,
    truthErrorMeters: number | undefined,
    inView: { slots: ArrayLike<number>; count: number; readable: boolean },
  ): void {
    const table = entities.table;
    const search = this.search;
    const names = pageNames();
    const typeOf = (slot: number) => table.entityType.subarray(7 * slot, 7 * slot + 7);
    const matches = (slot: number) =>
      entities.markings[slot]!.toLowerCase().includes(search) ||
      entities.ids[slot]!.includes(search) ||
      typeSearchText(names, typeOf(slot)).includes(search);
    const { slots, scope } = this.candidates.of(entities, inView, search, matches, performance.now());
    const marking = (s: number) => entities.markings[s]!;
    const comparators: Record<string, (a: number, b: number) => number> = {
      marking: (a, b) => collator.compare(marking(a), marking(b)) || table.key[a]! - table.key[b]!,
      type: (a, b) =>
        collator.compare(typeLabel(names, typeOf(a)), typeLabel(names, typeOf(b))) ||
        collator.compare(marking(a), marking(b)),
      id: (a, b) => table.key[a]! - table.key[b]!,
      force: (a, b) => table.forceId[a]! - table.forceId[b]! || collator.compare(marking(a), marking(b)),
      age: (a, b) => table.arrivalSeconds[a]! - table.arrivalSeconds[b]!,
      rate: (a, b) => entities.pduRate(b) - entities.pduRate(a),
    };
    slots.sort(comparators[this.sort] ?? comparators['marking']);
    const shown = slots.length > MAX_ROWS ? ` (first ${MAX_ROWS} shown)` : '';
    this.listCount.textContent =
      scope === 'unread'
        ? `${entities.count} entities: zoom in or search to list them`
        : `${slots.length}${scope === 'in view' ? ' in view' : ''} of ${entities.count} entities${shown}`;
    const rows: HTMLLIElement[] = [];
    for (const slot of slots.slice(0, MAX_ROWS)) {
      const row = document.createElement('li');
      row.dataset['slot'] = String(slot);
      if (slot === selectedSlot) row.className = 'selected';
      const force = document.createElement('span');
      force.className = `force f-${affiliationOf(table.forceId[slot]!)}`;
      const name = document.createElement('span');
      name.textContent = entities.markings[slot]!;
      const type = document.createElement('span');
      type.className = 'type';
      type.textContent = type.title = typeLabel(names, typeOf(slot));
      const id = document.createElement('span');
      id.className = 'id';
      id.textContent = entities.ids[slot]!;
      row.append(force, name, type, id);
      rows.push(row);
    }
    this.list.replaceChildren(...rows);
    this.refreshDetails(entities, nowSeconds, selectedSlot, truthErrorMeters);
  }

  private refreshDetails(
    entities: PageEntities,
    nowSeconds: number,
    slot: number,
    truthErrorMeters: number | undefined,
  ): void {
    const table = entities.table;
    const shown = slot >= 0 && table.active[slot] === 1;
    this.details.hidden = !shown;
    if (!shown) return;
    const type = table.entityType.subarray(7 * slot, 7 * slot + 7);
    const force = table.forceId[slot]!;
    const algorithm = table.store.algorithm[slot]!;
    const p = entities.placeOf(slot, this.place);
    const parts = entities.parts;
    const names = pageNames();
    const fields: Array<[string, string]> = [
      ['id', entities.ids[slot]!],
      ['marking', entities.markings[slot]!],
      ['force', `${force} (${names?.forceName(force) ?? FORCE_NAMES[force] ?? affiliationOf(force)})`],
      ...typeDetailRows(names, type, table.appearance[slot]!, parts.recordsOf(slot), parts.count(slot)),
      ['lat, lon', `${fixed(p[1]!, 6)}°, ${fixed(wrapLongitude(p[0]!), 6)}°`],
      ['alt', `${fixed(p[2]!, 1)} m`],
      ['speed', `${fixed(entities.speedMetersPerSecond(slot, nowSeconds), 1)} m/s`],
      ['heading', `${fixed(p[3]!, 1)}°`],
      ['DR algorithm', `${algorithm} (${DR_ALGORITHM_NAMES[algorithm] ?? 'unknown'})`],
      ['PDUs/s', fixed(entities.pduRate(slot), 2)],
      [
        'last PDU',
        `${fixed(entities.ageSeconds(slot, nowSeconds), 1)} s ago (${PDU_REASON_NAMES[entities.lastReason[slot]!]})`,
      ],
      ['display − DR', `${fixed(entities.displayErrorMeters(slot, nowSeconds), 2)} m`],
    ];
    if (truthErrorMeters !== undefined) fields.push(['display − truth', `${fixed(truthErrorMeters, 2)} m`]);
    this.detailTitle.textContent = entities.markings[slot] || entities.ids[slot]!;
    const nodes: HTMLElement[] = [];
    for (const [name, value] of fields) {
      const dt = document.createElement('dt');
      dt.textContent = name;
      const dd = document.createElement('dd');
      dd.textContent = value;
      nodes.push(dt, dd);
    }
    this.detailFields.replaceChildren(...nodes);
  }
}
