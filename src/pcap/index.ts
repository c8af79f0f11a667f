/** `reckon/pcap`: pcap and pcapng captures in and out, down to the DIS PDUs they carry. */
export { readCapture, CaptureFormatError, type Capture, type CaptureFrame } from './reader.js';
export { udpFromFrame, LinkType, type UdpDatagram, type SkippedFrame, type SkipReason } from './packet.js';
export { pcapFileHeader, pcapUdpRecord, type UdpEndpoints } from './writer.js';
export {
  disCapturePdus,
  type DisCaptureOptions,
  type DisCaptureTotals,
  type DisPduEvent,
} from './dis-capture.js';
export { summarizeDisCapture, type CaptureSummary, type EntitySummary } from './capture-summary.js';
export { EngagementLog, MAX_ENGAGEMENTS, type Engagement } from './engagement-log.js';
export type { RadioSummary } from './radio-summary.js';
