/**
 * The Beast binary format, as dump1090 and readsb serve it on TCP port 30005: each frame is 0x1a, a type byte
 * ('1' Mode A/C, 2 bytes; '2' Mode S short, 7 bytes; '3' Mode S long, 14 bytes), a 48-bit timestamp of a 12 MHz
 * clock, a signal level byte and the message; a 0x1a inside a frame is sent twice. Frames are cut out of the byte
 * stream as they come, across chunk boundaries, in a fixed buffer; garbage is skipped to the next 0x1a and counted.
 */

const ESCAPE = 0x1a;
/** The timestamp mlat-server gives the positions it computed: 0xFF004D4C4154 ("MLAT"). */
export const BEAST_MLAT_TIMESTAMP = 0xff004d4c4154;

/** Called with each frame: its type ('1', '2', '3' as 0x31–0x33), timestamp, signal and message bytes. */
export type BeastFrameSink = (
  type: number,
  timestamp: number,
  signal: number,
  message: Uint8Array,
  messageLength: number,
) => void;

/** Message length of each frame type, 0 for a type that is none. */
function messageLength(type: number): number {
  return type === 0x31 ? 2 : type === 0x32 ? 7 : type === 0x33 ? 14 : 0;
}

/** Beast binary frames out of a byte stream (escaped 0x1a, types 1–3), noise between frames skipped and counted. */
export class BeastDeframer {
  /** Frames handed over. */
  frames = 0;
  /** Bytes skipped while looking for a frame (noise, a frame cut short, an unknown type). */
  skippedBytes = 0;
  private readonly body = new Uint8Array(21);
  private readonly message: Uint8Array;
  /** 0: looking for 0x1a; 1: at the type byte; 2: in the body. */
  private state = 0;
  private type = 0;
  private need = 0;
  private have = 0;
  /** The previous body byte was 0x1a (an escape, or the start of the next frame). */
  private escaped = false;

  constructor(private readonly sink: BeastFrameSink) {
    this.message = this.body.subarray(7);
  }

  /** Feeds a chunk of the stream. */
  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.state === 0) {
        if (b === ESCAPE) this.state = 1;
        else this.skippedBytes++;
      } else if (this.state === 1) {
        this.startFrame(b);
      } else if (this.escaped) {
        this.escaped = false;
        if (b === ESCAPE) this.append(b);
        else {
          // A lone 0x1a: the frame was cut short and a new one begins.
          this.skippedBytes += this.have + 2;
          this.startFrame(b);
        }
      } else if (b === ESCAPE) {
        this.escaped = true;
      } else {
        this.append(b);
      }
    }
  }

  private startFrame(type: number): void {
    const length = messageLength(type);
    if (length === 0) {
      this.skippedBytes += 2;
      this.state = type === ESCAPE ? 1 : 0;
      return;
    }
    this.type = type;
    this.need = 7 + length;
    this.have = 0;
    this.state = 2;
  }

  private append(b: number): void {
    this.body[this.have++] = b;
    if (this.have < this.need) return;
    this.state = 0;
    const body = this.body;
    const timestamp =
      body[0]! * 2 ** 40 + body[1]! * 2 ** 32 + body[2]! * 2 ** 24 + body[3]! * 2 ** 16 + body[4]! * 2 ** 8 + body[5]!;
    this.frames++;
    this.sink(this.type, timestamp, body[6]!, this.message, this.need - 7);
  }
}
