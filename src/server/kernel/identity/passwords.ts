import argon2 from 'argon2';

/**
 * argon2id at OWASP's baseline (19 MiB, 2 passes, one lane): slow to guess, and a sign-in costs one
 * core ~25 ms and 19 MiB. The library's defaults (64 MiB, 3 passes, 4 lanes) cost both cores of a small
 * lab server ~115 ms and 64 MiB each: fifty people signing in at the start of a shift queued for seconds.
 */
const PARAMETERS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, PARAMETERS);
}

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/**
 * Whether a hash was made with other parameters than today's (an account older than them): it is
 * made again at the next right sign-in, so that every account costs a guesser, and the timing guard,
 * the same.
 */
export function isOutdated(hash: string): boolean {
  try {
    return argon2.needsRehash(hash, PARAMETERS);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown account cannot be told apart by timing. */
export async function verifyNobody(plain: string): Promise<false> {
  dummyHash ??= hashPassword('no such user: timing guard');
  await verifyPassword(await dummyHash, plain);
  return false;
}

/**
 * One check on each of the threads that check passwords (libuv's pool, four unless UV_THREADPOOL_SIZE
 * says otherwise), done as the server starts: a thread's first argon2 check costs ~90 ms more than the
 * next (the first 19 MiB it takes from the system), which the first four people to sign in after a
 * restart paid. Four checks at once land on four threads, each busy with its own.
 */
export async function warmPasswordThreads(threads = Number(process.env.UV_THREADPOOL_SIZE) || 4): Promise<void> {
  await Promise.all(Array.from({ length: threads }, () => verifyNobody('warm-up')));
}
