import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes): slow to guess, quick enough to sign in. */
export function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
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
