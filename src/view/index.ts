/**
 * `reckon/view`: the live map (docs/view.md) — the WebSocket gateway that forwards DIS to the page, the page's
 * HTTP server and the gateway ↔ page protocol.
 */
export { ViewGateway } from './gateway.js';
export type { GatewayOptions, GatewayStats } from './gateway-options.js';
export {
  createViewServer,
  listenView,
  pageUrl,
  defaultPageDir,
  DEFAULT_HTTP_HOST,
  DEFAULT_HTTP_PORT,
  type ViewServerOptions,
} from './http.js';
export { hostPolicy, type HostAllowed } from './host-check.js';
export {
  VIEW_PROTOCOL_VERSION,
  FEED_PATH,
  readFeedMessage,
  FeedWriter,
  parseServerMessage,
  encodeMessage,
  filterMatches,
  type ViewConfig,
  type ViewFilter,
  type ServerMessage,
  type ClientMessage,
  type FeedRecordVisitor,
} from './protocol.js';
