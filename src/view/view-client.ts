/** What the gateway keeps per WebSocket client: its filter, its congestion and the entities it still has to get. */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { compile, type CompiledFilter } from './compiled-filter.js';
import { FilterGate } from './filter-gate.js';
import { EMPTY_FILTER, type ViewFilter } from './protocol.js';
import { SlotMarks } from './slot-marks.js';

/** What `ViewGateway.clientStates` says of a client, for tests and diagnostics. */
export interface ClientState {
  /** Bytes its socket holds unsent. */
  bufferedBytes: number;
  /** Entities whose newest PDUs it still has to get. */
  pendingEntities: number;
  congested: boolean;
  skipped: number;
  skippedMessages: number;
  /** Filters replaced by a newer one before they were applied. */
  filtersCoalesced: number;
}

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
  /** PDUs it did not get: a newer one of the same entity replaced each while it was congested. */
  skipped = 0;
  /** Engagement messages it did not get while congested. */
  skippedMessages = 0;
  /** It missed entity control or radios while congested: greeted again (hello, state, snapshot) once it drains. */
  greetAgain = false;
  constructor(
    readonly socket: WebSocket,
    /** The connection under `socket` (what the upgrade came on): a tick's frames are written to it in one go. */
    readonly connection: Duplex,
    capacity: number,
  ) {
    this.marks = new SlotMarks(capacity);
  }
}
