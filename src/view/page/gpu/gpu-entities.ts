/**
 * The GPU side of a page frame: after `PageEntities.frame` packed the records of what changed, uploads them into the
 * GPU state (src/view/page/gpu/gpu-state.ts) on deck.gl's device, and gives the symbol layer what it draws from: the
 * state, the frame's DR uniforms (time, smoothing, the map's centre) and the list of readable slots in view. The
 * layer dead-reckons each entity as it draws it. Creates the GPU state for the entities it is given (again for new
 * ones, or a new device: every slot is then marked for upload). Runs inside the page's frame, before deck.gl draws,
 * so that the frame time the page shows and bench/view-page measures holds the upload.
 */
import { Buffer, type Device, type Texture } from '@luma.gl/core';
import type { PageEntities } from '../entities.js';
import type { DrUniforms } from './dr-glsl.js';
import { GpuState } from './gpu-state.js';

/** What the GPU draws from this frame. */
export interface GpuFrame {
  /** The entities' records. */
  state: Texture;
  /** The DR pass's uniforms for the displayed state, and for the raw dead-reckoned one (the ghosts). */
  dr: DrUniforms;
  ghostDr: DrUniforms;
  /** Slots to draw as dots: [0, slots). */
  slots: number;
  /** The readable slots in view (float32 each), `listCount` of them: drawn as symbols. */
  list: Buffer | null;
  listCount: number;
  /** Bumped whenever the state, the time or the list changed: the layers draw again. */
  frame: number;
}

/** The slots in view, as `InView` lists them. */
interface SlotList {
  readonly slots: ArrayLike<number>;
  readonly count: number;
  readonly version: number;
}

export class GpuEntities {
  private state: GpuState | null = null;
  private entities: PageEntities | null = null;
  private list: Buffer | null = null;
  private listVersion = -1;
  private readonly listValues = new Float32Array(4096);
  private output: GpuFrame | null = null;

  /**
   * Brings the GPU state up to the entities' last frame.
   * @param device - deck.gl's device, or null while it has none (nothing drawn yet; what changed waits).
   * @param inView - the readable slots in view (in-view.ts), drawn as symbols.
   * @returns what to draw from, or null without a device.
   */
  update(device: Device | null, entities: PageEntities, inView: SlotList): GpuFrame | null {
    if (device === null) return null;
    let state = this.state;
    if (state === null || state.device !== device || this.entities !== entities) {
      this.destroy();
      state = this.state = new GpuState(device, entities.capacity, entities.staging.maxRecords);
      this.entities = entities;
      entities.staging.markAll(entities.table.highWater);
      this.list = device.createBuffer({
        id: 'entity-list',
        byteLength: 4 * this.listValues.length,
        usage: Buffer.VERTEX,
      });
      this.listVersion = -1;
    }
    const uploaded = entities.staging.count;
    state.upload(entities.staging);
    const relative = entities.frameSeconds - entities.timeBaseSeconds;
    const hi = Math.fround(relative);
    const out = (this.output ??= {
      state: state.state,
      dr: state.uniforms(0, 0, 0, 0, 0),
      ghostDr: state.uniforms(0, 0, 0, 0, 0),
      slots: 0,
      list: null,
      listCount: 0,
      frame: 0,
    });
    const reference = entities.referenceLonDeg,
      slots = entities.table.highWater;
    const changed =
      entities.moved ||
      uploaded > 0 ||
      reference !== out.dr.referenceLonDeg ||
      slots !== out.slots ||
      inView.version !== this.listVersion ||
      out.state !== state.state;
    if (changed) {
      const n = Math.min(inView.count, this.listValues.length);
      if (inView.version !== this.listVersion) {
        for (let k = 0; k < n; k++) this.listValues[k] = inView.slots[k]!;
        if (n > 0) this.list!.write(this.listValues.subarray(0, n));
        this.listVersion = inView.version;
      }
      out.state = state.state;
      out.dr = state.uniforms(hi, relative - hi, entities.smoothingMethod, entities.smoothingSeconds, reference);
      out.ghostDr = state.uniforms(hi, relative - hi, 0, 0, reference);
      out.slots = slots;
      out.list = this.list;
      out.listCount = n;
      out.frame++;
    }
    return out;
  }

  destroy(): void {
    this.list?.destroy();
    this.list = null;
    this.state?.destroy();
    this.state = null;
    this.entities = null;
    this.output = null;
  }
}
