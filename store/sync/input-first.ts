import type { FrameScheduler } from './ports.ts';

/** The browser's frames and clock, as {@link inputFirstFrameScheduler} uses them. */
export interface FramePort {
  request(callback: () => void): number;
  cancel(handle: number): void;
  now(): number;
}

/** The inputs of a person that get the next frame to themselves. */
const PERSON_INPUTS = ['pointerdown', 'keydown', 'click', 'input'];

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
  const lastInput = inputs ? lastInputOf(inputs, frames) : { at: -Infinity };
  let waitedForInputAt = -Infinity;
  return {
    schedule(callback) {
      let waited = false;
      const run = () => {
        const inputPending =
          lastInput.at > waitedForInputAt && frames.now() - lastInput.at < RECENT_INPUT_MS;
        if (!waited && inputPending) {
          waited = true;
          waitedForInputAt = lastInput.at;
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

const lastInputs = new WeakMap<EventTarget, { at: number }>();

/** When the last input reached `inputs` (listened to once per target, however many schedulers). */
function lastInputOf(inputs: EventTarget, frames: FramePort): { at: number } {
  const last = lastInputs.get(inputs);
  if (last) return last;
  const tracked = { at: -Infinity };
  const note = () => {
    tracked.at = frames.now();
  };
  for (const type of PERSON_INPUTS)
    inputs.addEventListener(type, note, { capture: true, passive: true });
  lastInputs.set(inputs, tracked);
  return tracked;
}

function browserFrames(): FramePort {
  return {
    request: (callback) => requestAnimationFrame(() => callback()),
    cancel: (handle) => cancelAnimationFrame(handle),
    now: () => performance.now(),
  };
}
