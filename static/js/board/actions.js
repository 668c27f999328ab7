// @ts-check
// The game system's actions as the board offers them (the server's catalogue): the one
// the player chose for a drag, each one's gesture for a unit type, its player's word and
// the unit its costs count in. The board names no action: all of it is the catalogue's.
const $ = (id) => document.getElementById(id);

export class ActionChoice {
  constructor(config, store) {
    this.config = config;
    this.store = store;
    this.catalogue = config.actions ?? [];
    // A `group` action (a formation move) is a drag too, of the Shift-clicked pieces; a
    // turn in place (a free spin) is one of the piece's facing (Q/E, the handle, a drag).
    this.drags = this.catalogue.filter((a) => a.drag || a.group || a.path === "turn");
    this.current = this.drags[0]?.type ?? null; // the drag action the player chose
  }

  /** The catalogue's entry for an action type (the current one by default), as `unit`
   *  picks it: a `variants` entry naming its type replaces the gesture fields it gives. */
  spec(type = this.current, unit = null) {
    const spec = this.catalogue.find((a) => a.type === type) ?? null;
    const variant = unit && spec?.variants?.find((v) => v.unit_types.includes(unit.type));
    return variant ? { ...spec, ...variant, unit_types: spec.unit_types, variants: [] } : spec;
  }

  /** The player's word for an action type, from the catalogue. */
  label(type) {
    return this.catalogue.find((a) => a.type === type)?.label ?? String(type ?? "").replaceAll("_", " ");
  }

  /** A cost or allowance in the system's unit: 8.5" or 8.5 MP. */
  cost(value) {
    return `${value}${this.config.costSuffix ?? "″"}`;
  }

  /** What the current action's costs count, after the number (the catalogue says). */
  costSuffix() {
    const unit = this.catalogue.find((a) => a.type === this.current)?.cost_unit;
    return this.config.costSuffixes?.[unit] ?? this.config.costSuffix ?? "″";
  }

  /** The drag actions a unit is offered now (the server's list). */
  offeredDrags(unitId) {
    const offered = this.store.offered(unitId);
    if (offered === null) return this.drags;
    return this.drags.filter((a) => offered.includes(a.type));
  }

  /** Whether the current action's path may climb for `unit` (the catalogue's `path_z`). */
  mayClimb(unit) {
    const spec = this.catalogue.find((a) => a.type === this.current);
    return Boolean(unit && spec?.path_z?.includes(unit.type));
  }

  /** The altitude field's height for the next path points; 0 where it may not climb. */
  altitude(unit) {
    if (!this.mayClimb(unit)) return 0;
    const z = Number(/** @type {HTMLInputElement | null} */ ($("altitude"))?.value ?? 0);
    return Number.isFinite(z) && z > 0 ? Math.round(z * 100) / 100 : 0;
  }
}
