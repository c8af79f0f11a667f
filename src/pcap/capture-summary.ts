/**
 * Per-entity statistics of a capture's Entity State traffic, its engagements and radios, plus the capture totals:
 * what `reckon decode` summarises and its report draws.
 */
import { PduType } from '../pdu/wire/constants.js';
import { entityKey, markingText } from '../pdu/wire/entity-state-record.js';
import { ReceiverRecord, SignalRecord, TransmitterRecord } from '../pdu/wire/radio.js';
import { DetonationRecord, FireRecord } from '../pdu/wire/warfare.js';
import { EngagementLog } from './engagement-log.js';
import { RadioTally, type RadioSummary } from './radio-summary.js';
import { disCapturePdus, emptyTotals, type DisCaptureOptions, type DisCaptureTotals } from './dis-capture.js';
import type { Capture, CaptureFrame } from './reader.js';

/** One entity of a capture: its identity, PDUs and extent. */
export interface EntitySummary {
  /** `site:application:entity`. */
  readonly id: string;
  marking: string;
  /** Entity State PDUs (type 1) plus Entity State Updates (type 67). */
  pdus: number;
  firstTimeSeconds: number;
  lastTimeSeconds: number;
  /** From the last full Entity State PDU. */
  drAlgorithm: number;
  /** kind:domain:country:category:subcategory:specific:extra of the last full Entity State PDU. */
  entityType: string;
  /** Force ID of the last full Entity State PDU (0 other, 1 friendly, 2 opposing, 3 neutral; IEEE 1278.1 §6.2.39). */
  forceId: number;
  /** Appearance of the last PDU (Entity State or Entity State Update), 32 bits. */
  appearance: number;
  protocolVersion: number;
  /** Last reported ECEF location, metres. */
  readonly locationEcef: Float64Array;
  /** Last reported linear velocity, m/s. */
  readonly linearVelocity: Float64Array;
}

/** What a capture holds: totals and one summary per entity. */
export interface CaptureSummary {
  readonly totals: DisCaptureTotals;
  /** In order of first appearance. */
  readonly entities: EntitySummary[];
  /** Radios named by Transmitter, Signal or Receiver PDUs, in order of first appearance. */
  readonly radios: RadioSummary[];
  /** Shots and their detonations, in the order fired (src/pcap/engagement-log.ts). */
  readonly engagements: EngagementLog;
  readonly firstTimeSeconds: number;
  readonly lastTimeSeconds: number;
}

/** Decodes a capture and gathers per-entity statistics and the totals. */
export function summarizeDisCapture(capture: Capture, options: DisCaptureOptions = {}): CaptureSummary {
  const builder = new CaptureSummaryBuilder(options);
  builder.add(capture.frames);
  return builder.summary();
}

/** The same, for a capture read in pieces (`CaptureParser`): `add` the frames of each piece, then `summary`. */
export class CaptureSummaryBuilder {
  readonly totals = emptyTotals();
  private readonly byKey = new Map<number, EntitySummary>();
  private readonly radios = new RadioTally();
  private readonly engagements = new EngagementLog();
  private firstTimeSeconds = Number.POSITIVE_INFINITY;
  private lastTimeSeconds = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: DisCaptureOptions = {}) {}

  add(frames: Iterable<CaptureFrame>): void {
    for (const frame of frames) {
      const t = frame.timeSeconds;
      if (t < this.firstTimeSeconds) this.firstTimeSeconds = t;
      if (t > this.lastTimeSeconds) this.lastTimeSeconds = t;
    }
    const { byKey, radios } = this;
    for (const event of disCapturePdus(frames, this.totals, this.options)) {
      const other = event.other;
      if (other instanceof TransmitterRecord) radios.transmitter(other, event.timeSeconds);
      else if (other instanceof SignalRecord) radios.signal(other, event.timeSeconds);
      else if (other instanceof ReceiverRecord) radios.receiver(other, event.timeSeconds);
      else if (other instanceof FireRecord || other instanceof DetonationRecord)
        this.engagements.add(other, event.timeSeconds);
      const r = event.record;
      if (!r) continue;
      const key = entityKey(r.site, r.application, r.entity);
      let entity = byKey.get(key);
      if (!entity) {
        entity = {
          id: `${r.site}:${r.application}:${r.entity}`,
          marking: '',
          pdus: 0,
          firstTimeSeconds: event.timeSeconds,
          lastTimeSeconds: event.timeSeconds,
          drAlgorithm: 0,
          entityType: '',
          forceId: 0,
          appearance: 0,
          protocolVersion: r.protocolVersion,
          locationEcef: new Float64Array(3),
          linearVelocity: new Float64Array(3),
        };
        byKey.set(key, entity);
      }
      entity.pdus++;
      entity.lastTimeSeconds = event.timeSeconds;
      entity.protocolVersion = r.protocolVersion;
      entity.locationEcef.set(r.location);
      entity.linearVelocity.set(r.linearVelocity);
      entity.appearance = r.appearance;
      if (r.pduType === PduType.ENTITY_STATE) {
        entity.marking = markingText(r);
        entity.drAlgorithm = r.drAlgorithm;
        entity.entityType = Array.from(r.entityType).join(':');
        entity.forceId = r.forceId;
      }
    }
  }

  summary(): CaptureSummary {
    const known = this.firstTimeSeconds <= this.lastTimeSeconds;
    return {
      totals: this.totals,
      entities: [...this.byKey.values()],
      radios: this.radios.radios,
      engagements: this.engagements,
      firstTimeSeconds: known ? this.firstTimeSeconds : Number.NaN,
      lastTimeSeconds: known ? this.lastTimeSeconds : Number.NaN,
    };
  }
}
