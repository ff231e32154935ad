/**
 * When serve last did anything for anyone: requests in flight (a forwarded `watch` counts for as
 * long as it runs) and the moment the last one ended. An idle serve stops itself from this.
 */
export class Activity {
  private inFlight = 0;
  private lastEnded: number;

  constructor(private readonly now: () => number = Date.now) {
    this.lastEnded = now();
  }

  /** Marks a request as started; the returned function marks it ended (once). */
  begin(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      this.lastEnded = this.now();
    };
  }

  /** Milliseconds without any request in flight (0 while one is). */
  idleMs(): number {
    return this.inFlight > 0 ? 0 : this.now() - this.lastEnded;
  }
}

/** Runs `work` as one request of `activity`. */
export async function tracked<T>(activity: Activity, work: () => Promise<T>): Promise<T> {
  const end = activity.begin();
  try {
    return await work();
  } finally {
    end();
  }
}
