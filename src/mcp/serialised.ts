/** Runs the functions given to it one after another, in the order given (a failure does not stop the queue). */
export type Serialised = <T>(fn: () => Promise<T>) => Promise<T>;

export function serialised(): Serialised {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}
