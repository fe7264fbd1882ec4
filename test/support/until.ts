/** Waits until `check` holds, looking every `everyMs`; throws after `ms`. For conditions a test cannot await directly. */
export async function until(check: () => boolean, ms = 10_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
