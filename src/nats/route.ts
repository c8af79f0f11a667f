/** What a subject router gives for a PDU: its subject, interned as a slot, its cell and the cell it left. */

/**
 * One subject, interned: the router hands out the same object for every PDU of a subject, so its user can keep
 * per-subject state on it without looking the subject string up (a subclass of the router makes the slots it needs:
 * `newSlot`; the transport's are its bundles). Each slot also has a number (`SubjectRouter.routeSlot`) and
 * `SLOT_STATE_INTS` integers of state (`SubjectRouter.slotState`).
 */
export interface SubjectSlot {
  readonly subject: string;
  /** The H3 cell of a subject routed by position, else undefined. */
  readonly cell: string | undefined;
}

/**
 * Integers of state per slot in `SubjectRouter.slotState`, zero when the slot is made, for the router's user (the
 * transport keeps its bundles there): a typed array read in the order of the slots' numbers rather than a field of
 * an object somewhere in the heap.
 */
export const SLOT_STATE_INTS = 4;

/** Where one PDU goes. */
export interface PduRoute {
  /** Its subject. */
  subject: string;
  /** The subject interned (`slot.subject === subject`). */
  slot: SubjectSlot;
  /** H3 cell of an Entity State (Update) PDU routed by position, else undefined. */
  cell: string | undefined;
  /** Entity key (site·2³² + application·2¹⁶ + entity) of an Entity State (Update) PDU, else -1. */
  entityKey: number;
  /**
   * For a PDU routed to a cell: the cell the entity's previous PDU routed to a cell went to, when that was another
   * cell (the entity crossed an edge), else undefined. A PDU whose appearance says Deactivated (IEEE 1278.1
   * §6.2.26) ends the entity's track: its next PDU has no left cell.
   */
  leftCell: string | undefined;
}

/** A fresh route to pass to `SubjectRouter.route`. */
export function createRoute(): PduRoute {
  return { subject: '', slot: NO_SLOT, cell: undefined, entityKey: -1, leftCell: undefined };
}

/** The slot of a route not yet computed. */
const NO_SLOT: SubjectSlot = Object.freeze({ subject: '', cell: undefined });
