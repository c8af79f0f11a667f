// The NATS transport's counters, apart from the transport so that types naming them need no NATS client.

/** Counters of the NATS side, updated in place. */
export interface NatsStats {
  /** NATS messages published (bundles and left-cell copies) and received. */
  messagesOut: number;
  messagesIn: number;
  /** Copies sent to the cell an entity left. */
  leftCellCopiesOut: number;
  /** Left-cell copies turned into leave notices (the entity left this receiver's area). */
  leftArea: number;
  /** Left-cell copies ignored because this receiver also takes the entity's new cell. */
  leftCellIgnored: number;
  /** PDUs published to the per-exercise subject although they are Entity State: their location has no cell. */
  unroutable: number;
  /** Times the connection was lost, and regained. */
  disconnects: number;
  reconnects: number;
  /** Seconds spent disconnected (the gaps in the stream), summed over the completed reconnects. */
  gapSeconds: number;
  /** Slow-consumer events: the client or the server could not keep up with a subscription. */
  slowConsumers: number;
  /** Errors the server reported asynchronously (e.g. a permission violation). */
  serverErrors: number;
  /** Subjects currently subscribed to. */
  subscriptions: number;
  /** Cell subscriptions dropped because the area of interest moved off them. */
  cellsDropped: number;
  /**
   * Entities removed at once because the area moved off their cell (counted by the subscriber that holds the
   * entity table, `createSubscriber`).
   */
  leftWithCell: number;
}

/** Zeroed counters for a `NatsTransport`. */
export function createNatsStats(): NatsStats {
  return {
    messagesOut: 0,
    messagesIn: 0,
    leftCellCopiesOut: 0,
    leftArea: 0,
    leftCellIgnored: 0,
    unroutable: 0,
    disconnects: 0,
    reconnects: 0,
    gapSeconds: 0,
    slowConsumers: 0,
    serverErrors: 0,
    subscriptions: 0,
    cellsDropped: 0,
    leftWithCell: 0,
  };
}
