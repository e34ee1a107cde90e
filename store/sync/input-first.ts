import type { FrameScheduler } from './ports.ts';

/** The browser's frames and clock, as {@link inputFirstFrameScheduler} uses them. */
export interface FramePort {
  request(callback: () => void): number;
  cancel(handle: number): void;
  now(): number;
}

/** The inputs of a person that get the next frame to themselves. */
export const PERSON_INPUTS = ['pointerdown', 'keydown', 'click', 'input'] as const;

/** An input this recent (ms) when a flush is due makes it wait a frame. */
const RECENT_INPUT_MS = 50;

/**
 * Flushes once per animation frame, except in the frame right after a person's input (a click,
 * a key, a pointer pressed, a field's input): that frame paints what the input did, and the live
 * updates queued meanwhile are flushed at the frame after it. A flush waits one frame at most,
 * and one input delays one flush at most, so updates never stall while a person keeps typing.
 */
export function inputFirstFrameScheduler(
  frames: FramePort = browserFrames(),
  inputs: EventTarget | null = typeof window === 'undefined' ? null : window,
): FrameScheduler {
  let lastInputAt = -Infinity;
  let waitedForInputAt = -Infinity;
  const noteInput = () => {
    lastInputAt = frames.now();
  };
  for (const type of PERSON_INPUTS)
    inputs?.addEventListener(type, noteInput, { capture: true, passive: true });
  return {
    schedule(callback) {
      let waited = false;
      const run = () => {
        const inputPending =
          lastInputAt > waitedForInputAt && frames.now() - lastInputAt < RECENT_INPUT_MS;
        if (!waited && inputPending) {
          waited = true;
          waitedForInputAt = lastInputAt;
          handle = frames.request(run);
          return;
        }
        callback();
      };
      let handle = frames.request(run);
      return () => frames.cancel(handle);
    },
  };
}

function browserFrames(): FramePort {
  return {
    request: (callback) => requestAnimationFrame(() => callback()),
    cancel: (handle) => cancelAnimationFrame(handle),
    now: () => performance.now(),
  };
}
