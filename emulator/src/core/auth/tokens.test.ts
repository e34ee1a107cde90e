import { describe, expect, it } from 'vitest';
import { expiresIn, hashSecret, TokenSigner } from './tokens.ts';

describe('TokenSigner', () => {
  const signer = new TokenSigner('s'.repeat(64));

  it('verifies what it signed, and nothing altered or signed elsewhere', () => {
    const token = signer.sign({ userId: 'ana', exp: expiresIn(60_000) });
    expect(signer.verify(token)).toMatchObject({ userId: 'ana' });
    const [head, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ userId: 'ben' })).toString('base64url');
    expect(signer.verify(`${head}.${forged}.${signature}`)).toBeNull();
    expect(new TokenSigner('t'.repeat(64)).verify(token)).toBeNull();
    expect(signer.verify('not-a-token')).toBeNull();
  });

  it('refuses an expired token', () => {
    expect(signer.verify(signer.sign({ exp: expiresIn(-2_000) }))).toBeNull();
  });
});

describe('hashSecret', () => {
  it('is the SHA-256 of the secret, in hex', () => {
    expect(hashSecret('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
