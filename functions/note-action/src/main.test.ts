import { describe, expect, it } from 'vitest';
import { parseRequest } from './main.ts';

const message = (body: unknown) => {
  try {
    parseRequest(JSON.stringify(body));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('note-action parseRequest', () => {
  it('takes an add as sent, never trimmed or cut', () => {
    expect(parseRequest('{"action":"add","noteId":"n1","orderId":"o1","body":" Hi "}')).toEqual({
      action: 'add',
      noteId: 'n1',
      orderId: 'o1',
      body: ' Hi ',
    });
    expect(parseRequest('{"action":"remove","noteId":"n1"}')).toEqual({
      action: 'remove',
      noteId: 'n1',
    });
  });

  it('counts code points: 2,000 emoji pass, 2,001 characters are refused', () => {
    const add = (body: string) => ({ action: 'add', noteId: 'n1', orderId: 'o1', body });
    expect(message(add('😀'.repeat(2000)))).toBeNull();
    expect(message(add('😀'.repeat(2001)))).toBe('Notes are limited to 2,000 characters.');
    expect(message(add(' \u00a0\n'))).toBe('Write something first.');
  });

  it('refuses an author, permissions or any field it does not take', () => {
    const add = { action: 'add', noteId: 'n1', orderId: 'o1', body: 'x' };
    expect(message({ ...add, authorId: 'u2' })).toBe('"authorId" cannot be set on a note.');
    expect(message({ action: 'remove', noteId: 'n1', orderId: 'o2' })).toBe(
      '"orderId" cannot be set on a note.',
    );
    expect(message({ ...add, noteId: '_x' })).toBe('noteId must be an id.');
    expect(message([add])).toBe('The request body must be a JSON object.');
    expect(() => parseRequest('{')).toThrow('The request body must be JSON.');
  });
});
