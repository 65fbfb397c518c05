// The catalog as state: the one place rxjs lives. Servers report changes; the store rebuilds the
// snapshot once per burst (debounced on the microtask queue), publishes it on a BehaviorSubject, and tells
// subscribers which kinds really changed (by content hash), so sessions only hear list_changed
// for what a client could notice. Handlers read `current` synchronously.

import { BehaviorSubject, Subject, asapScheduler, debounceTime, type Observable, type Subscription } from 'rxjs';
import type { GatewayConfig } from '../config/types.js';
import type { ListKind } from '../protocol/mcp.js';
import { DEFAULT_EXPOSURE, DEFAULT_GUARD, buildCatalog, changedKinds, emptyCatalog, type Catalog, type CatalogExposure, type CatalogServerInput } from './build.js';
import type { GuardOptions } from './guard.js';

export class CatalogStore {
  private readonly snapshot$ = new BehaviorSubject<Catalog>(emptyCatalog);
  private readonly changes = new Subject<readonly ListKind[]>();
  /** Requests for a rebuild; a burst within one turn of the microtask queue makes one rebuild. */
  private readonly invalidations = new Subject<void>();
  private readonly rebuilds: Subscription;

  constructor(
    private readonly sources: () => readonly CatalogServerInput[],
    private naming: GatewayConfig['naming'],
    private guard: GuardOptions = DEFAULT_GUARD,
    private exposure: CatalogExposure = DEFAULT_EXPOSURE,
  ) {
    this.rebuilds = this.invalidations.pipe(debounceTime(0, asapScheduler)).subscribe(() => this.rebuild());
  }

  get current(): Catalog {
    return this.snapshot$.value;
  }

  /** Every published snapshot. */
  get snapshots(): Observable<Catalog> {
    return this.snapshot$.asObservable();
  }

  /** Kinds whose client-visible lists changed, once per rebuild that changed something. */
  get changed(): Observable<readonly ListKind[]> {
    return this.changes.asObservable();
  }

  /** Asks for a rebuild; bursts (50 servers becoming ready) coalesce into one. */
  invalidate(): void {
    this.invalidations.next();
  }

  /** Rebuilds now; returns the kinds that changed. */
  rebuild(): readonly ListKind[] {
    const before = this.snapshot$.value;
    const after = buildCatalog(this.sources(), this.naming, this.guard, this.exposure);
    const kinds = changedKinds(before, after);
    // Always publish: routing tables may change even when no list a client sees does.
    this.snapshot$.next(after);
    if (kinds.length > 0) this.changes.next(kinds);
    return kinds;
  }

  setNaming(naming: GatewayConfig['naming']): void {
    this.naming = naming;
    this.invalidate();
  }

  /** New exposure settings (a reload), or the token counter is loaded. */
  setExposure(exposure: CatalogExposure): void {
    this.exposure = exposure;
    this.invalidate();
  }

  /** New pins or sanitizer settings (a reload, a new lock file). */
  setGuard(guard: GuardOptions): void {
    this.guard = guard;
    this.invalidate();
  }

  close(): void {
    this.rebuilds.unsubscribe();
    this.changes.complete();
    this.snapshot$.complete();
  }
}
