/**
 * Resolves with the first defined value `check` returns, polling every `everyMs`. There is no
 * deadline of its own worth the name: a busy machine may take minutes, and the test's own timeout
 * ends the wait; the budget only stops the polling of a test that already failed.
 */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, everyMs = 50, budgetMs = 590_000): Promise<T> {
  const giveUp = Date.now() + budgetMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > giveUp) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
