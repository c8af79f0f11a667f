/**
 * The radios of a capture: each radio (an entity and a radio number) with what its last Transmitter PDU said and
 * how many Signal and Receiver PDUs name it (IEEE 1278.1-2012 §7.7: the entity id and radio id pair ties a
 * Signal PDU to its transmitter).
 */
import type { ReceiverRecord, SignalRecord, TransmitterRecord } from '../pdu/wire/radio.js';
import { signalDataBytes } from '../pdu/wire/radio.js';

/** One radio of a capture: what its last Transmitter PDU said, and the Transmitter, Signal and Receiver PDUs naming it. */
export interface RadioSummary {
  /** `site:application:entity` of the entity the radio belongs to. */
  readonly entity: string;
  readonly radioId: number;
  transmitterPdus: number;
  signalPdus: number;
  receiverPdus: number;
  /** Bytes of signal data (each PDU's data length in bits, rounded up to bytes). */
  signalBytes: number;
  /** From the last Transmitter PDU: Hz, dBm, 0 off / 1 on / 2 transmitting; NaN and -1 before one. */
  frequencyHz: number;
  powerDbm: number;
  transmitState: number;
  /** Transmitter PDUs that said it was transmitting (state 2). */
  transmittingPdus: number;
  /** Capture times of the first and last PDU naming the radio, seconds since the epoch. */
  firstTimeSeconds: number;
  lastTimeSeconds: number;
}

/** Gathers `RadioSummary` rows from the radio PDUs of a capture, in order of first appearance. */
export class RadioTally {
  private readonly byKey = new Map<string, RadioSummary>();

  get radios(): RadioSummary[] {
    return [...this.byKey.values()];
  }

  private radio(id: { site: number; application: number; entity: number }, radioId: number, time: number) {
    const entity = `${id.site}:${id.application}:${id.entity}`;
    const key = `${entity}#${radioId}`;
    let radio = this.byKey.get(key);
    if (!radio) {
      radio = {
        entity,
        radioId,
        transmitterPdus: 0,
        signalPdus: 0,
        receiverPdus: 0,
        signalBytes: 0,
        frequencyHz: Number.NaN,
        powerDbm: Number.NaN,
        transmitState: -1,
        transmittingPdus: 0,
        firstTimeSeconds: time,
        lastTimeSeconds: time,
      };
      this.byKey.set(key, radio);
    }
    radio.lastTimeSeconds = time;
    return radio;
  }

  transmitter(record: TransmitterRecord, timeSeconds: number): void {
    const radio = this.radio(record.entityId, record.radioId, timeSeconds);
    radio.transmitterPdus++;
    radio.frequencyHz = record.frequencyHz;
    radio.powerDbm = record.powerDbm;
    radio.transmitState = record.transmitState;
    if (record.transmitState === 2) radio.transmittingPdus++;
  }

  signal(record: SignalRecord, timeSeconds: number): void {
    const radio = this.radio(record.entityId, record.radioId, timeSeconds);
    radio.signalPdus++;
    radio.signalBytes += signalDataBytes(record.dataLengthBits);
  }

  receiver(record: ReceiverRecord, timeSeconds: number): void {
    this.radio(record.entityId, record.radioId, timeSeconds).receiverPdus++;
  }
}

/** A frequency as the summary and the report show it: 72.275 MHz, 1.2 GHz, 500 kHz; `-` when not a number. */
export function frequencyText(hz: number): string {
  if (!Number.isFinite(hz)) return '-';
  if (hz >= 1e9) return `${+(hz / 1e9).toFixed(6)} GHz`;
  if (hz >= 1e6) return `${+(hz / 1e6).toFixed(6)} MHz`;
  if (hz >= 1e3) return `${+(hz / 1e3).toFixed(3)} kHz`;
  return `${hz} Hz`;
}
