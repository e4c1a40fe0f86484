/**
 * GoTrue's two kinds of rate limit: per-client token buckets (tollbooth) on endpoints such as /verify and
 * /token, and one project-wide budget of e-mails per hour.
 */

/** A token bucket per key: `burst` requests at once, refilled at `perSecond`. */
export class KeyedBucket {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private perSecond: number,
    private burst: number,
  ) {}

  /** Takes one token for `key`; false when the bucket is empty. */
  take(key: string, now = Date.now()): boolean {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.prune(now);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private prune(now: number) {
    for (const [k, b] of this.buckets)
      if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(k);
  }
}

/** At most `limit` events in any `windowMs` (GoTrue's e-mail budget: `email_sent` per hour). */
export class WindowLimit {
  private events: number[] = [];

  constructor(
    private limit: number,
    private windowMs: number,
  ) {}

  allow(now = Date.now()): boolean {
    while (this.events.length && this.events[0] <= now - this.windowMs) this.events.shift();
    if (this.events.length >= this.limit) return false;
    this.events.push(now);
    return true;
  }
}
