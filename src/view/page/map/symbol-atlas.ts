/**
 * The symbol atlas: each MIL-STD-2525C symbol drawn with milsymbol the first time an entity needs it, packed in rows
 * into one canvas that the symbol layer samples (src/view/page/gpu/entity-symbol-layer.ts).
 */
import { ms, std2525c } from 'milsymbol/index.mjs';

ms.addIcons(std2525c);

/** Where a symbol is in the atlas, as deck.gl's IconLayer reads it. */
interface AtlasCell {
  x: number;
  y: number;
  width: number;
  height: number;
  anchorX: number;
  anchorY: number;
}

/** Atlas width, px: about six symbols a row. */
const ATLAS_WIDTH_PX = 256;

/**
 * Symbol atlas: each symbol drawn with milsymbol the first time an entity needs it (drawing all of them up front cost
 * about a second of a page's start on a slow CPU), packed in rows into one canvas. A canvas and a mapping that grew
 * are new objects, so that deck.gl uploads them again.
 */
export class SymbolAtlas {
  canvas: HTMLCanvasElement;
  mapping: Record<string, AtlasCell> = {};
  /** Symbols drawn. */
  size = 0;
  private rowX = 0;
  private rowY = 0;
  private rowHeight = 0;

  constructor(private readonly sizePx = 28) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = ATLAS_WIDTH_PX;
    this.canvas.height = 64;
  }

  /** Draws the symbols of `keys` not drawn yet (`symbolKey`, src/view/page/map/symbols.ts). @returns whether any was. */
  add(keys: Iterable<string>): boolean {
    const fresh = [...new Set(keys)].filter((key) => this.mapping[key] === undefined);
    if (fresh.length === 0) return false;
    const images = fresh.map((key) => {
      const symbol = new ms.Symbol(key, { size: this.sizePx, colorMode: 'Medium' });
      return { key, image: symbol.asCanvas(), anchor: symbol.getAnchor() };
    });
    const mapping = { ...this.mapping };
    for (const { key, image, anchor } of images) {
      if (this.rowX + image.width > ATLAS_WIDTH_PX) {
        this.rowY += this.rowHeight + 1;
        this.rowX = this.rowHeight = 0;
      }
      mapping[key] = {
        x: this.rowX,
        y: this.rowY,
        width: image.width,
        height: image.height,
        anchorX: anchor.x,
        anchorY: anchor.y,
      };
      this.rowX += image.width + 1;
      this.rowHeight = Math.max(this.rowHeight, image.height);
    }
    const canvas = document.createElement('canvas');
    canvas.width = ATLAS_WIDTH_PX;
    canvas.height = Math.max(this.canvas.height, 2 ** Math.ceil(Math.log2(this.rowY + this.rowHeight + 1)));
    const context = canvas.getContext('2d')!;
    context.drawImage(this.canvas, 0, 0);
    for (const { key, image } of images) context.drawImage(image, mapping[key]!.x, mapping[key]!.y);
    this.canvas = canvas;
    this.mapping = mapping;
    this.size += images.length;
    return true;
  }
}
