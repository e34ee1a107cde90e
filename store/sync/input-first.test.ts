import { describe, expect, it } from 'vitest';
import { inputFirstScheduler, listenForInput } from './input-first.ts';
import type { FrameScheduler } from './ports.ts';

/** Frames run by hand: `frame()` runs what was scheduled for the next frame. */
function handFrames() {
  let queued: (() => void)[] = [];
  const frames: FrameScheduler = {
    schedule(callback) {
      queued.push(callback);
      return () => {
        queued = queued.filter((c) => c !== callback);
      };
    },
  };
  const frame = () => {
    const run = queued;
    queued = [];
    for (const callback of run) callback();
  };
  return { frames, frame };
}

function setup() {
  const { frames, frame } = handFrames();
  let clock = 0;
  let input = -Infinity;
  const scheduler = inputFirstScheduler(
    frames,
    () => input,
    () => clock,
  );
  const flushes: number[] = [];
  return {
    scheduler,
    flushes,
    frame: (at: number) => {
      clock = at;
      frame();
    },
    input: (at: number) => {
      input = at;
    },
    flushAtNextFrame: () => scheduler.schedule(() => flushes.push(clock)),
  };
}

describe('inputFirstScheduler', () => {
  it('flushes in the next frame when no input came', () => {
    const s = setup();
    s.flushAtNextFrame();
    s.frame(16);
    expect(s.flushes).toEqual([16]);
  });

  it('moves the flush to the frame after the one that paints an input, once', () => {
    const s = setup();
    s.flushAtNextFrame();
    s.frame(16);
    s.input(20);
    s.flushAtNextFrame();
    s.frame(33);
    expect(s.flushes).toEqual([16]);
    s.frame(50);
    expect(s.flushes).toEqual([16, 50]);
  });

  it('does not move a flush for an input an earlier frame already painted', () => {
    const s = setup();
    s.input(5);
    s.flushAtNextFrame();
    s.frame(16);
    s.frame(33);
    expect(s.flushes).toEqual([33]);
    s.flushAtNextFrame();
    s.frame(50);
    expect(s.flushes).toEqual([33, 50]);
  });

  it('ignores an input older than 100 ms (its frame has been painted)', () => {
    const s = setup();
    s.input(10);
    s.flushAtNextFrame();
    s.frame(500);
    expect(s.flushes).toEqual([500]);
  });

  it('cancels a flush that was moved', () => {
    const s = setup();
    s.input(10);
    const cancel = s.flushAtNextFrame();
    s.frame(16);
    cancel();
    s.frame(33);
    expect(s.flushes).toEqual([]);
  });
});

describe('listenForInput', () => {
  it('keeps the time of the latest click, key or text input, in the capture phase', () => {
    const target = new EventTarget();
    let clock = 1;
    const lastInput = listenForInput(target, () => clock);
    expect(lastInput()).toBe(-Infinity);
    target.dispatchEvent(new Event('click'));
    expect(lastInput()).toBe(1);
    clock = 7;
    target.dispatchEvent(new Event('keydown'));
    expect(lastInput()).toBe(7);
    clock = 9;
    target.dispatchEvent(new Event('scroll'));
    expect(lastInput()).toBe(7);
    target.dispatchEvent(new Event('input'));
    expect(lastInput()).toBe(9);
  });
});
