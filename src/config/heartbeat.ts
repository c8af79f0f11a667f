// The heartbeat settings' rules are in src/dr/owner/heartbeat.ts; these names stay for the files that import them here.
export {
  entityTimeoutSeconds,
  HEARTBEAT_TABLES,
  heartbeatClass,
  heartbeatSeconds,
  heartbeatTableFromConfig,
} from '../dr/owner/heartbeat.js';
