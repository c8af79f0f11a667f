/** What the gateway keeps per WebSocket client: its filter, its congestion and the entities it still has to get. */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { compile, type CompiledFilter } from './compiled-filter.js';
import { FilterGate } from './filter-gate.js';
import { EMPTY_FILTER, type ViewFilter } from './protocol.js';
import { SlotMarks } from './slot-marks.js';

/** One client of the gateway. */
export class ViewClient {
  filter: ViewFilter = EMPTY_FILTER;
  compiled: CompiledFilter = compile(EMPTY_FILTER);
  /** Filters asked for and not yet applied (coalesced, rate-limited). */
  readonly filters = new FilterGate();
  /** Not sent to while its socket holds more than the high-water mark. */
  congested = false;
  /** Entities whose newest PDUs this client still has to get: its snapshot, or what it missed while congested. */
  readonly marks: SlotMarks;
  skipped = 0;
  constructor(
    readonly socket: WebSocket,
    /** The connection under `socket` (what the upgrade came on): a tick's frames are written to it in one go. */
    readonly connection: Duplex,
    capacity: number,
  ) {
    this.marks = new SlotMarks(capacity);
  }
}
