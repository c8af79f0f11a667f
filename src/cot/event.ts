/**
 * One CoT event as fields, and its XML document built with fast-xml-parser's `XMLBuilder` (which escapes `<`, `>`,
 * `&`, `"` and `'` in attribute values and text). Every text field goes through `stripControlCharacters` (see
 * mapping.ts) first, so every character that reaches the builder is an XML 1.0 character, whoever filled the fields.
 * The element layout follows the CoT event schema (version 2.0) as TAK clients read it; see docs/cot.md.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { stripControlCharacters as clean } from './mapping.js';

/** The content of one CoT event. Times are Unix epoch seconds (UTC). */
export interface CotEventFields {
  readonly uid: string;
  /** e.g. `a-f-G-E-V`. */
  readonly type: string;
  /** How the position was obtained: `m-s` (machine, simulated). */
  readonly how: string;
  readonly timeSeconds: number;
  readonly startSeconds: number;
  readonly staleSeconds: number;
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Height above the WGS-84 ellipsoid, metres. */
  readonly haeM: number;
  /** Shown by TAK; control characters are removed when the event is encoded. */
  readonly callsign: string;
  /** Course over ground, degrees true. */
  readonly courseDeg: number;
  /** Horizontal speed, m/s. */
  readonly speedMps: number;
  /** Where the entity came from: its DIS identity, for consumers that want more than the symbol. */
  readonly dis: {
    readonly exercise: number;
    /** `site:application:entity`. */
    readonly id: string;
    /** `kind:domain:country:category:subcategory:specific:extra`. */
    readonly entityType: string;
    readonly force: number;
    /** The entity type's names, every level SISO-REF-010 lists: "Platform / Land / … / Tank / M1 Abrams / M1A2". */
    readonly typeName?: string;
    /** Its short label, "M1A2 · Tank · USA", also sent as the event's remarks. */
    readonly label?: string;
  };
}

/** CoT's value for an unknown circular and linear error (`ce`, `le`). */
export const COT_UNKNOWN_ERROR = '9999999.0';

const ATTRIBUTE_PREFIX = '@_';

/** The builder: reused (it holds only options). */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  suppressEmptyNode: true,
  // By default the value "true" is written as a bare attribute (`<contact callsign/>`), which is not XML.
  suppressBooleanAttributes: false,
});

/** ISO 8601 UTC with milliseconds, as CoT times are written. */
export function cotTime(epochSeconds: number): string {
  return new Date(Math.round(epochSeconds * 1000)).toISOString();
}

/** A number with at most `decimals` decimals (trailing zeros dropped), and never `-0`. */
function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return Number(text) === 0 ? '0' : String(Number(text));
}

/**
 * The XML document of one CoT event (with its XML declaration), as sent to TAK:
 * `<event version="2.0" uid type how time start stale><point lat lon hae ce le/><detail><contact callsign/>
 * <track course speed/><__dis …/></detail></event>`.
 */
export function encodeCotEvent(fields: CotEventFields): string {
  const a = ATTRIBUTE_PREFIX;
  const course = Number(fields.courseDeg.toFixed(1)) % 360;
  return builder.build({
    '?xml': { [`${a}version`]: '1.0', [`${a}encoding`]: 'UTF-8', [`${a}standalone`]: 'yes' },
    event: {
      [`${a}version`]: '2.0',
      [`${a}uid`]: clean(fields.uid),
      [`${a}type`]: clean(fields.type),
      [`${a}how`]: clean(fields.how),
      [`${a}time`]: cotTime(fields.timeSeconds),
      [`${a}start`]: cotTime(fields.startSeconds),
      [`${a}stale`]: cotTime(fields.staleSeconds),
      point: {
        [`${a}lat`]: fixed(fields.latitudeDeg, 7),
        [`${a}lon`]: fixed(fields.longitudeDeg, 7),
        [`${a}hae`]: fixed(fields.haeM, 2),
        [`${a}ce`]: COT_UNKNOWN_ERROR,
        [`${a}le`]: COT_UNKNOWN_ERROR,
      },
      detail: {
        contact: { [`${a}callsign`]: clean(fields.callsign) },
        track: { [`${a}course`]: fixed(course, 1), [`${a}speed`]: fixed(fields.speedMps, 2) },
        __dis: {
          [`${a}exercise`]: String(fields.dis.exercise),
          [`${a}id`]: clean(fields.dis.id),
          [`${a}entityType`]: clean(fields.dis.entityType),
          [`${a}force`]: String(fields.dis.force),
          ...(fields.dis.typeName === undefined ? {} : { [`${a}typeName`]: clean(fields.dis.typeName) }),
          ...(fields.dis.label === undefined ? {} : { [`${a}label`]: clean(fields.dis.label) }),
        },
        ...(fields.dis.label === undefined ? {} : { remarks: clean(fields.dis.label) }),
      },
    },
  }) as string;
}

/** An event read back from XML: the attributes as text, by element. */
export interface ParsedCotEvent {
  readonly event: Readonly<Record<string, string>>;
  readonly point: Readonly<Record<string, string>>;
  readonly contact: Readonly<Record<string, string>>;
  readonly track: Readonly<Record<string, string>>;
  readonly dis: Readonly<Record<string, string>>;
  /** The text of `detail/remarks`, or undefined. */
  readonly remarks: string | undefined;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  parseAttributeValue: false,
  parseTagValue: false,
  ignoreDeclaration: true,
});

/**
 * Parses one CoT event document with the same library (for tests and tools that read what was sent).
 * @returns undefined when the text holds no `event` element.
 */
export function parseCotEvent(xml: string): ParsedCotEvent | undefined {
  const doc = parser.parse(xml) as { event?: Record<string, unknown> };
  const event = doc.event;
  if (!event || typeof event !== 'object') return undefined;
  const attributes = (node: unknown): Record<string, string> => {
    const out: Record<string, string> = {};
    if (!node || typeof node !== 'object') return out;
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith(ATTRIBUTE_PREFIX)) out[k.slice(ATTRIBUTE_PREFIX.length)] = String(v);
    }
    return out;
  };
  const detail = (event.detail ?? {}) as Record<string, unknown>;
  return {
    event: attributes(event),
    point: attributes(event.point),
    contact: attributes(detail.contact),
    track: attributes(detail.track),
    dis: attributes(detail.__dis),
    remarks: typeof detail.remarks === 'string' ? detail.remarks : undefined,
  };
}
