import type { FrameScheduler } from './ports.ts';

/** When the page last began handling a person's input (ms on `now`'s clock; -Infinity: never). */
export type LastInputClock = () => number;

/** An input older than this is not the current frame's: its render has been painted. */
const RECENT_INPUT_MS = 100;

/**
 * Flushes on `frames`, but not in the frame that paints a person's input: when an input was
 * handled since the last flush frame (and within the last 100 ms), the flush moves to the next
 * frame, once. The render a click or a keystroke caused then has its frame to itself instead of
 * sharing it with a frame's worth of realtime events (together often over 50 ms, a long frame);
 * the events wait one frame more.
 */
export function inputFirstScheduler(
  frames: FrameScheduler,
  lastInputAt: LastInputClock,
  now: () => number,
): FrameScheduler {
  let lastFrameAt = -Infinity;
  return {
    schedule(callback) {
      let cancel = frames.schedule(() => {
        const at = now();
        const input = lastInputAt();
        const inputThisFrame = input > lastFrameAt && at - input < RECENT_INPUT_MS;
        lastFrameAt = at;
        if (!inputThisFrame) return callback();
        cancel = frames.schedule(() => {
          lastFrameAt = now();
          callback();
        });
      });
      return () => cancel();
    },
  };
}

/** The input events that start a person's interaction (what a click or a keystroke dispatches). */
const INPUT_EVENTS = ['pointerdown', 'mousedown', 'click', 'keydown', 'input', 'change'] as const;

/**
 * The last input seen on `target` in the capture phase (before any handler renders):
 * `now()` at the latest of {@link INPUT_EVENTS}.
 */
export function listenForInput(
  target: Pick<EventTarget, 'addEventListener'>,
  now: () => number = () => performance.now(),
): LastInputClock {
  let last = -Infinity;
  const seen = () => {
    last = now();
  };
  for (const type of INPUT_EVENTS)
    target.addEventListener(type, seen, { capture: true, passive: true });
  return () => last;
}

let pageInput: LastInputClock | null = null;

/** The page's last input (one set of listeners on `window` for the page's life); never outside a browser. */
export function pageLastInput(): LastInputClock {
  if (typeof window === 'undefined') return () => -Infinity;
  pageInput ??= listenForInput(window);
  return pageInput;
}
