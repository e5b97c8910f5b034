/**
 * What `act` throws, so a test can assert on the error's fields outside any `catch`.
 * Fails the test when nothing is thrown.
 */
export function thrownBy(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to throw, but it returned.');
}
