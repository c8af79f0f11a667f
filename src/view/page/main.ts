/**
 * The `reckon view` page: connects to the gateway's `/feed` (src/view/protocol.ts), decodes the PDUs and
 * dead-reckons every entity in the browser with the project's own table, and draws them at the display rate on a
 * MapLibre map with deck.gl layers. docs/view.md describes what is on screen and why it is built this way.
 */
import './app.css';
import * as maplibregl from 'maplibre-gl';
import { MapboxOverlay } from '@deck.gl/mapbox';
import type { Layer } from '@deck.gl/core';
import type { Device } from '@luma.gl/core';
import {
  EMPTY_FILTER,
  FEED_PATH,
  type CountersMessage,
  type HelloMessage,
  type ServerMessage,
  type ViewFilter,
} from '../protocol.js';
import { TruthComparison } from './truth-error.js';
import { PageEntities, pageCapacity } from './entities.js';
import { Feed, ServerClock } from './feed.js';
import { EntityLayers, deckLayerManager } from './map/layers.js';
import { SymbolAtlas } from './map/symbol-atlas.js';
import { GpuEntities } from './gpu/gpu-entities.js';
import { InView } from './map/in-view.js';
import { LabelSchedule } from './map/label-schedule.js';
import { FitControl } from './map/fit-control.js';
import { Framing } from './map/framing.js';
import { DRAW_IN_ORDER, stackLayers } from './map/layer-stack.js';
import { UrlState } from './url-state.js';
import { ensureGrid, formatDistance, metricGrid, offlineStyle, onlineStyle } from './map/basemap.js';
import { Panel } from './panel/panel.js';
import { Layout } from './panel/layout.js';
import { BasemapDetail } from './map/basemap-detail.js';
import { type TestHook, createHook } from './test-hook.js';
import { loadPageNames } from './names.js';
import { PageEngagements, isEngagementMessage } from './engagements/engagements.js';
import { engagementLayers } from './engagements/engagement-layers.js';
import { EngagementPanel } from './engagements/engagement-panel.js';
import { isFiniteNumber, isHello } from './message-checks.js';

/** How often the list and details are redrawn, ms. */
const PANEL_INTERVAL_MS = 250;

class App {
  entities = new PageEntities();
  readonly engagements = new PageEngagements();
  readonly engagementPanel = new EngagementPanel();
  private layers: EntityLayers;
  readonly atlas = new SymbolAtlas();
  private readonly clock = new ServerClock();
  readonly feed: Feed;
  readonly map: maplibregl.Map;
  readonly overlay = new MapboxOverlay({
    interleaved: false,
    layers: [],
    parameters: DRAW_IN_ORDER,
    onDeviceInitialized: (device: Device) => void (this.device = device),
  });
  /** deck.gl's GPU device, once it has one, and the entities' state on it (src/view/page/gpu/). */
  private device: Device | null = null;
  private readonly gpu = new GpuEntities();
  private readonly panel: Panel;
  private readonly layout: Layout;
  readonly basemapDetail: BasemapDetail;
  private hello: HelloMessage | null = null;
  private counters: CountersMessage | null = null;
  filter: ViewFilter = EMPTY_FILTER;
  selectedKey = -1;
  private frameMs = 0;
  /** Messages of a known type with fields missing or of the wrong type (ignored). */
  invalidMessages = 0;
  private lastPanel = 0;
  private gridText = '–';
  /** The truth the gateway forwards and the display's error against it. */
  private readonly truth = new TruthComparison();
  /** Frames the entities as they arrive and follows them, until the user moves the map (or the URL set a view). */
  readonly framing: Framing;
  /** The layers last handed to deck.gl, in drawing order. */
  stacked: Layer[] = [];
  /** Whether the last layers handed to deck.gl held shots, bursts or collisions (which fade frame by frame). */
  private shotsDrawn = false;
  /** The state the URL carries, and the entity it named until that shows up. */
  private readonly url = new UrlState(location.hash);
  /** Frames stand still (`TestHook.hold`): the picture, and what a click picks from, stay as last drawn. */
  held = false;
  /** The entities in view and whether they are few enough to read (in-view.ts). */
  private readonly inView = new InView();
  readonly labels: LabelSchedule;
  readonly redrawPanel = (): void => void (this.lastPanel = 0);
  readonly hook: TestHook;

  constructor() {
    const urlView = this.url.initial;
    maplibregl.setWorkerUrl(new URL('assets/maplibre-gl-worker.js', document.baseURI).href);
    this.map = new maplibregl.Map({
      container: 'map',
      style: offlineStyle(new URL('assets/', document.baseURI).href),
      center: urlView.center ?? [0, 20],
      zoom: urlView.zoom ?? 1.5,
      attributionControl: false,
      // Symbols rotate with their heading on a north-up, flat map.
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
    });
    this.map.touchZoomRotate.disableRotation();
    this.map.addControl(new maplibregl.ScaleControl({ unit: 'metric' }), 'bottom-left');
    this.map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-left');
    this.map.addControl(
      new FitControl(() => this.framing.fitNow(this.entities.positions, this.entities.count)),
      'top-left',
    );
    // A move the user made (drag, wheel, pinch, zoom buttons) ends following the entities.
    this.map.on('movestart', (event) => {
      if ((event as { originalEvent?: unknown }).originalEvent !== undefined) this.framing.following = false;
    });
    this.map.addControl(this.overlay as unknown as maplibregl.IControl);
    this.map.on('moveend', () => this.viewChanged());
    this.labels = new LabelSchedule(this.map, this.inView);
    this.map.on('move', () => (this.labels.viewMoved = true));
    this.basemapDetail = new BasemapDetail(this.map, new URL('assets/', document.baseURI).href);
    this.map.on('style.load', () => {
      ensureGrid(this.map);
      this.updateGrid();
      this.basemapDetail.update();
    });
    this.layers = new EntityLayers(this.entities, this.atlas);
    this.panel = new Panel({ filterChanged: () => this.sendFilter(), select: (slot) => this.selectSlot(slot) });
    this.layout = new Layout(() => this.map.resize());
    this.framing = new Framing(this.map, () => this.layout.coveredInsets(), urlView.center === undefined);
    const url = new URL(FEED_PATH, document.baseURI);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.feed = new Feed(url.href, {
      message: (message) => this.onMessage(message),
      binary: (bytes) => this.onBinary(bytes),
      state: (state) => {
        this.hook.connected = state === 'open';
        this.panel.connection(state, this.feed.reconnects);
      },
    });
    this.hook = createHook(this);
    window.__reckon = this.hook;
    // A link's filter goes out with the first hello.
    if (this.panel.setFilterInputs(urlView)) this.sendFilter();
    this.feed.start();
    requestAnimationFrame(this.tick);
  }

  nowSeconds(): number {
    return this.clock.serverMs(performance.now()) / 1000;
  }

  private onMessage(message: ServerMessage): void {
    const local = performance.now();
    switch (message.type) {
      case 'hello':
        if (isHello(message)) this.onHello(message, local);
        else this.invalidMessages++;
        break;
      case 'counters':
        if (!isFiniteNumber(message.serverTimeMs)) {
          this.invalidMessages++;
          break;
        }
        this.clock.observe(message.serverTimeMs, local);
        this.counters = this.hook.counters = message;
        break;
      case 'filter-ok':
        // Everything before this was sent under the old filter; the snapshot of the new one follows.
        this.entities.clear();
        this.hook.filtersConfirmed++;
        break;
      case 'pong':
        this.clock.observe(message.serverTimeMs, local);
        break;
      case 'truth':
        if (!isFiniteNumber(message.serverTimeMs) || !Array.isArray(message.entities)) {
          this.invalidMessages++;
          break;
        }
        this.clock.observe(message.serverTimeMs, local);
        this.truth.compare(this.entities, message.serverTimeMs, message.entities);
        break;
      case 'error':
        // The last few, for tests and the console; bounded.
        this.hook.errors.push(`${String(message.code)}: ${String(message.message)}`);
        if (this.hook.errors.length > 20) this.hook.errors.shift();
        break;
      default:
        // Shots, entity control, radios; else a type this page does not know (a newer server): ignored.
        if (isEngagementMessage(message) && isFiniteNumber(message.serverTimeMs)) {
          this.clock.observe(message.serverTimeMs, local);
          this.engagements.onMessage(message, this.entities, this.nowSeconds());
        }
        break;
    }
  }

  private onHello(hello: HelloMessage, local: number): void {
    this.hook.hellos++;
    this.engagements.clear();
    this.clock.reset();
    this.clock.observe(hello.serverTimeMs, local);
    const c = hello.config;
    const previous = this.hello?.config;
    this.hello = hello;
    const capacity = pageCapacity(c.maxEntities);
    const sameModel =
      previous !== undefined &&
      this.entities.capacity === capacity &&
      previous.smoothing.method === c.smoothing.method &&
      previous.smoothing.timeSeconds === c.smoothing.timeSeconds &&
      previous.positionThresholdMeters === c.positionThresholdMeters &&
      previous.orientationThresholdDeg === c.orientationThresholdDeg;
    if (sameModel) {
      this.entities.clear();
    } else {
      this.entities = new PageEntities({
        capacity,
        smoothing: c.smoothing,
        positionThresholdMeters: c.positionThresholdMeters,
        orientationThresholdDeg: c.orientationThresholdDeg,
      });
      this.layers = new EntityLayers(this.entities, this.atlas);
    }
    if (typeof c.tiles === 'string' && c.tiles !== '' && previous?.tiles !== c.tiles)
      this.map.setStyle(onlineStyle(c.tiles));
    // A reconnect restores the filter the user had; the server starts every client with the empty one.
    if (this.filter !== EMPTY_FILTER) this.applyFilter();
    this.framing.reset();
  }

  private onBinary(bytes: Uint8Array): void {
    const local = performance.now();
    this.entities.applyMessage(bytes);
    // Arrival times are server-clock stamps too (at most as late as this message was sent).
    if (bytes.byteLength >= 8) this.clock.observe(new DataView(bytes.buffer, bytes.byteOffset).getFloat64(0), local);
  }

  private readonly onSelect = (slot: number): void => this.selectSlot(slot);

  selectSlot(slot: number): void {
    const t = this.entities.table;
    this.selectedKey = slot >= 0 && t.active[slot] === 1 ? t.key[slot]! : -1;
    this.url.pendingSelection = null;
    this.lastPanel = 0;
    this.writeUrl();
  }

  /** Selects the entity the URL named as soon as it is there. */
  private selectPending(): void {
    const slot = this.url.pendingSlot(this.entities);
    if (slot >= 0) this.selectSlot(slot);
  }

  private writeUrl(): void {
    this.url.write(this.map, this.entities, this.selectedKey, this.filter);
  }

  private sendFilter(): void {
    this.filter = this.panel.filter(
      this.hello?.config.exercise ?? null,
      this.panel.wantsVisibleArea ? this.visibleBbox() : null,
    );
    this.applyFilter();
    this.writeUrl();
  }

  /**
   * Sends the filter; the server confirms it (`filter-ok`, where the page starts over) and then sends the newest
   * PDU of every entity that matches. Not connected: it goes out after the next hello.
   */
  applyFilter(): void {
    this.feed.send({ type: 'filter', ...this.filter });
  }

  private visibleBbox(): [number, number, number, number] {
    const b = this.map.getBounds();
    const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
    const west = b.getWest(),
      east = b.getEast();
    if (east - west >= 360) return [-180, clampLat(b.getSouth()), 180, clampLat(b.getNorth())];
    const wrap = (v: number) => ((((v + 180) % 360) + 360) % 360) - 180;
    return [wrap(west), clampLat(b.getSouth()), wrap(east), clampLat(b.getNorth())];
  }

  private viewChanged(): void {
    this.updateGrid();
    this.basemapDetail.update();
    this.writeUrl();
    if (this.panel.wantsVisibleArea) this.sendFilter();
  }

  private updateGrid(): void {
    const source = this.map.getSource('grid') as maplibregl.GeoJSONSource | undefined;
    if (source === undefined) return;
    const b = this.map.getBounds();
    const grid = metricGrid(b.getWest(), b.getSouth(), b.getEast(), b.getNorth());
    source.setData(grid.geojson as unknown as GeoJSON.FeatureCollection);
    this.gridText = formatDistance(grid.spacingMeters);
  }

  private readonly tick = (): void => {
    requestAnimationFrame(this.tick);
    if (!this.clock.synced || this.held) return;
    const start = performance.now();
    const t = this.nowSeconds();
    const e = this.entities;
    e.expire(t);
    this.engagements.holdArrivals(e);
    e.referenceLonDeg = this.map.getCenter().lng;
    const ghosts = this.panel.toggle('ghosts');
    const selectedSlot = this.selectedKey >= 0 ? e.table.slotOf(this.selectedKey) : -1;
    e.frame(t);
    const labels = this.panel.toggle('labels');
    this.labels.update(e, start, selectedSlot, labels);
    const gpu = this.gpu.update(this.device, e, this.inView);
    const built = this.layers.layers(
      {
        trails: this.panel.toggle('trails'),
        markers: this.panel.toggle('markers'),
        ghosts,
        labels,
        selectedSlot,
        labelSlots: this.labels.slots,
        readable: this.inView.readable,
        onSelect: this.onSelect,
      },
      this.truth.points,
      t,
      gpu,
      this.inView,
    );
    const shots = this.panel.toggle('shots')
      ? engagementLayers(this.engagements.picture(e, t, selectedSlot >= 0 ? e.ids[selectedSlot]! : null))
      : [];
    // Nothing moved or changed on the map, and no shots are drawn or to be taken away: the picture stands (no
    // drawing, which costs more than all the rest on a CPU renderer).
    if (built !== null || shots.length > 0 || this.shotsDrawn) {
      this.stacked = stackLayers([...(built ?? this.layers.current), ...shots]);
      this.overlay.setProps({ layers: this.stacked });
      // deck.gl matches the layers and updates their attributes at its own next render; that update is run here, so
      // that the frame figure holds it as bench/view-page measures it (deck.gl then finds nothing left to update).
      // `_deck` is not public API: without it deck.gl still updates the layers itself, only outside the figure.
      deckLayerManager(this.overlay)?.updateLayers();
      this.shotsDrawn = shots.length > 0;
      this.hook.draws++;
    }
    this.frameMs = this.hook.frameMs = performance.now() - start;
    this.hook.frameServerMs = t * 1000;
    if (this.url.pendingSelection !== null) this.selectPending();
    this.framing.update(e.positions, e.count, start);
    // The names follow the first frame that draws entities: they are not in the page's first download.
    if (e.count > 0) loadPageNames(this.redrawPanel);
    if (start - this.lastPanel >= PANEL_INTERVAL_MS) {
      this.lastPanel = start;
      this.panel.counters(this.counters, e.count, this.frameMs, this.gridText);
      const truthError = selectedSlot >= 0 ? this.truth.errorOf(selectedSlot) : undefined;
      this.panel.refresh(e, t, selectedSlot, truthError, this.inView);
      this.engagementPanel.refresh(e, selectedSlot, this.engagements);
      this.panel.truth(this.truth.summary());
    }
  };
}

new App();
