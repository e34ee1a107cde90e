import { describe, expect, it } from 'vitest';
import { inputFirstFrameScheduler, type FramePort } from './input-first.ts';

/** Frames that run when the test says, on a clock the test moves. */
class Frames implements FramePort {
  time = 0;
  #callbacks = new Map<number, () => void>();
  #next = 1;

  request(callback: () => void): number {
    const handle = this.#next++;
    this.#callbacks.set(handle, callback);
    return handle;
  }

  cancel(handle: number): void {
    this.#callbacks.delete(handle);
  }

  now(): number {
    return this.time;
  }

  /** Moves the clock a frame on and runs the callbacks due. */
  frame(): void {
    this.time += 16;
    const callbacks = [...this.#callbacks.values()];
    this.#callbacks.clear();
    for (const callback of callbacks) callback();
  }
}

function setup() {
  const frames = new Frames();
  const inputs = new EventTarget();
  const scheduler = inputFirstFrameScheduler(frames, inputs);
  const flushedAt: number[] = [];
  const schedule = () => scheduler.schedule(() => flushedAt.push(frames.time));
  const input = (type = 'click') => inputs.dispatchEvent(new Event(type));
  return { frames, schedule, input, flushedAt };
}

describe('inputFirstFrameScheduler', () => {
  it('flushes at the next frame when no one is typing or clicking', () => {
    const { frames, schedule, flushedAt } = setup();
    schedule();
    frames.frame();
    expect(flushedAt).toEqual([16]);
  });

  it('leaves the frame after a click, a key, a pointer or an input to it and flushes at the one after', () => {
    for (const type of ['click', 'keydown', 'pointerdown', 'input']) {
      const { frames, schedule, input, flushedAt } = setup();
      schedule();
      input(type);
      frames.frame();
      expect(flushedAt, type).toEqual([]);
      frames.frame();
      expect(flushedAt, type).toEqual([32]);
    }
  });

  it('waits one frame at most, however many inputs come meanwhile', () => {
    const { frames, schedule, input, flushedAt } = setup();
    schedule();
    input('keydown');
    frames.frame();
    input('keydown');
    frames.frame();
    expect(flushedAt).toEqual([32]);
  });

  it('makes one flush wait for an input, not every flush after it', () => {
    const { frames, schedule, input, flushedAt } = setup();
    schedule();
    input();
    frames.frame();
    frames.frame();
    schedule();
    frames.frame();
    expect(flushedAt).toEqual([32, 48]);
  });

  it('does not wait for an input long past', () => {
    const { frames, schedule, input, flushedAt } = setup();
    input();
    frames.time += 200;
    schedule();
    frames.frame();
    expect(flushedAt).toEqual([216]);
  });

  it('cancels a flush, also one waiting for an input', () => {
    const { frames, schedule, input, flushedAt } = setup();
    const cancel = schedule();
    input();
    frames.frame();
    cancel();
    frames.frame();
    expect(flushedAt).toEqual([]);
  });

  it('gives a second scheduler of the same page the same inputs (one desk after another)', () => {
    const frames = new Frames();
    const inputs = new EventTarget();
    inputFirstFrameScheduler(frames, inputs);
    const later = inputFirstFrameScheduler(frames, inputs);
    const flushedAt: number[] = [];
    later.schedule(() => flushedAt.push(frames.time));
    inputs.dispatchEvent(new Event('keydown'));
    frames.frame();
    frames.frame();
    expect(flushedAt).toEqual([32]);
  });

  it('ignores events that are not a person’s input', () => {
    const { frames, schedule, input, flushedAt } = setup();
    schedule();
    input('scroll');
    frames.frame();
    expect(flushedAt).toEqual([16]);
  });
});
