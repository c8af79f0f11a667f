/** DIS → Cursor on Target: mapping, the frames → events operator and the outputs. See docs/cot.md. */
export {
  affiliationForForce,
  cotDimensionFor,
  cotTypeFor,
  cotUid,
  courseAndSpeed,
  stripControlCharacters,
  type CotAffiliation,
} from './mapping.js';
export {
  encodeCotEvent,
  parseCotEvent,
  cotTime,
  COT_UNKNOWN_ERROR,
  type CotEventFields,
  type ParsedCotEvent,
} from './event.js';
export {
  cotEvents,
  cotEventsOptionProblems,
  type CotEvent,
  type CotEventReason,
  type CotEventsOptions,
} from './operator.js';
export {
  parseCotUrl,
  openCotOutput,
  TAK_MESH_URL,
  type CotOutput,
  type CotOutputOptions,
  type CotOutputStats,
  type CotOutputTarget,
  type CotProtocol,
  type CotTlsOptions,
} from './output.js';
