/**
 * The map symbol (2525C code, map/symbols.ts) of each slot, by index into the symbols in use, looked up only when
 * the slot's kind, domain, force or category changed.
 */
import type { RemoteEntityTable } from '../../dr/receiver/remote-entity-table.js';
import { symbolKey } from './map/symbols.js';

export class SlotSymbols {
  /** The symbols in use (2525C codes) in the order they were first seen: a record holds its symbol's index. */
  readonly iconKeys: string[] = [];
  /** Symbol index of each slot. */
  readonly slotIcon: Uint16Array;
  /** Per slot: kind, domain, force and category packed (the symbol's inputs), to look the symbol up only on change. */
  private readonly slotSymbolInputs: Float64Array;
  private readonly iconIndex = new Map<string, number>();

  constructor(capacity: number) {
    this.slotIcon = new Uint16Array(capacity);
    this.slotSymbolInputs = new Float64Array(capacity).fill(-1);
  }

  /** Looks the slot's symbol up again when its inputs in `table` changed. @returns whether its index changed. */
  update(table: RemoteEntityTable, slot: number): boolean {
    const type = 7 * slot;
    const kind = table.entityType[type]!;
    const domain = table.entityType[type + 1]!;
    const category = table.entityType[type + 3]!;
    const force = table.forceId[slot]!;
    const inputs = ((kind * 256 + domain) * 256 + force) * 65536 + category;
    if (this.slotSymbolInputs[slot] === inputs) return false;
    this.slotSymbolInputs[slot] = inputs;
    const key = symbolKey(kind, domain, force, category);
    let index = this.iconIndex.get(key);
    if (index === undefined) {
      index = this.iconKeys.length;
      this.iconKeys.push(key);
      this.iconIndex.set(key, index);
    }
    this.slotIcon[slot] = index;
    return true;
  }

  /** Forgets a slot's inputs, so that its next PDU looks its symbol up (a new entity took it). */
  clear(slot: number): void {
    this.slotSymbolInputs[slot] = -1;
  }

  /** The symbol (2525C code) drawn for a slot. */
  symbolOf(slot: number): string {
    return this.iconKeys[this.slotIcon[slot]!] ?? '';
  }
}
