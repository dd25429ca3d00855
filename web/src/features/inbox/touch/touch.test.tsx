import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS, swipeThreshold, useRowGestures } from './useRowGestures';
import { PULL_TRIGGER, usePullToRefresh } from './usePullToRefresh';

const WIDTH = 360;

function Row({ onSwipe, onLongPress, onOpen }: { onSwipe: () => void; onLongPress: () => void; onOpen: () => void }) {
  const g = useRowGestures({ onSwipe, onLongPress });
  return (
    <div data-testid="row" data-offset={g.offset} onClick={onOpen} {...g.handlers}>
      <button type="button" data-testid="open">
        open
      </button>
    </div>
  );
}

function setup() {
  const calls = { onSwipe: vi.fn(), onLongPress: vi.fn(), onOpen: vi.fn() };
  render(<Row {...calls} />);
  const row = screen.getByTestId('row');
  row.getBoundingClientRect = () => ({ width: WIDTH, height: 60, top: 0, left: 0, right: WIDTH, bottom: 60, x: 0, y: 0, toJSON: () => ({}) });
  return { row, ...calls };
}

const finger = (x: number, y: number) => ({ pointerType: 'touch', isPrimary: true, pointerId: 1, clientX: x, clientY: y });

describe('row gestures', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    // A gesture's click watch ends with the next press.
    vi.runOnlyPendingTimers();
    fireEvent.pointerDown(document.body);
    vi.useRealTimers();
  });

  it('a swipe past the threshold acts (either way) and its click does not open the mail', () => {
    const { row, onSwipe, onOpen } = setup();
    const far = swipeThreshold(WIDTH) + 5;
    fireEvent.pointerDown(row, finger(300, 30));
    fireEvent.pointerMove(row, finger(290, 31));
    fireEvent.pointerMove(row, finger(300 - far, 32));
    expect(row).toHaveAttribute('data-offset', String(-far));
    fireEvent.pointerUp(row, finger(300 - far, 32));
    expect(onSwipe).toHaveBeenCalledTimes(1);
    expect(row).toHaveAttribute('data-offset', '0');
    fireEvent.click(screen.getByTestId('open'), { detail: 1 });
    expect(onOpen).not.toHaveBeenCalled();

    fireEvent.pointerDown(row, finger(50, 30));
    fireEvent.pointerMove(row, finger(50 + far, 30));
    fireEvent.pointerUp(row, finger(50 + far, 30));
    expect(onSwipe).toHaveBeenCalledTimes(2);
  });

  it('a short swipe, a vertical move (the list scrolling) and a cancel do nothing', () => {
    const { row, onSwipe, onLongPress } = setup();
    fireEvent.pointerDown(row, finger(300, 30));
    fireEvent.pointerMove(row, finger(300 - swipeThreshold(WIDTH) + 10, 30));
    fireEvent.pointerUp(row, finger(300 - swipeThreshold(WIDTH) + 10, 30));
    fireEvent.pointerDown(row, finger(300, 30));
    fireEvent.pointerMove(row, finger(302, 80));
    fireEvent.pointerMove(row, finger(150, 90));
    fireEvent.pointerUp(row, finger(150, 90));
    fireEvent.pointerDown(row, finger(300, 30));
    fireEvent.pointerMove(row, finger(100, 30));
    fireEvent.pointerCancel(row, finger(100, 30));
    act(() => void vi.advanceTimersByTime(LONG_PRESS_MS * 2));
    expect(onSwipe).not.toHaveBeenCalled();
    expect(onLongPress).not.toHaveBeenCalled();
  });

  it('a long press selects without opening; a tap still opens; a mouse is left alone', () => {
    const { row, onLongPress, onOpen, onSwipe } = setup();
    fireEvent.pointerDown(row, finger(200, 30));
    act(() => void vi.advanceTimersByTime(LONG_PRESS_MS - 1));
    expect(onLongPress).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(onLongPress).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(row, finger(200, 30));
    // The bulk bar moved the rows: the leftover click lands elsewhere, and is eaten there too.
    const elsewhere = vi.fn();
    document.body.addEventListener('click', elsewhere);
    fireEvent.click(document.body, { detail: 1 });
    expect(elsewhere).not.toHaveBeenCalled();
    document.body.removeEventListener('click', elsewhere);
    act(() => void vi.runOnlyPendingTimers());

    fireEvent.pointerDown(row, finger(200, 30));
    fireEvent.pointerUp(row, finger(200, 30));
    fireEvent.click(screen.getByTestId('open'), { detail: 1 });
    expect(onOpen).toHaveBeenCalledTimes(1);

    fireEvent.pointerDown(row, { ...finger(300, 30), pointerType: 'mouse' });
    fireEvent.pointerMove(row, { ...finger(0, 30), pointerType: 'mouse' });
    fireEvent.pointerUp(row, { ...finger(0, 30), pointerType: 'mouse' });
    act(() => void vi.advanceTimersByTime(LONG_PRESS_MS * 2));
    expect(onSwipe).not.toHaveBeenCalled();
    expect(onLongPress).toHaveBeenCalledTimes(1);
  });
});

function List({ onRefresh }: { onRefresh: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const pulled = usePullToRefresh(ref, onRefresh);
  return <div ref={ref} data-testid="list" data-pulled={pulled} />;
}

const touchAt = (y: number, x = 100) => ({ touches: [{ clientX: x, clientY: y }] });

describe('pull to refresh', () => {
  it('refreshes after a pull down past the trigger from the top, not after a short one or a scroll', () => {
    const onRefresh = vi.fn();
    render(<List onRefresh={onRefresh} />);
    const list = screen.getByTestId('list');
    fireEvent.touchStart(list, touchAt(10));
    fireEvent.touchMove(list, touchAt(10 + PULL_TRIGGER));
    expect(Number(list.dataset.pulled)).toBeGreaterThan(0);
    fireEvent.touchEnd(list, { touches: [] });
    expect(onRefresh).not.toHaveBeenCalled();
    expect(list).toHaveAttribute('data-pulled', '0');

    fireEvent.touchStart(list, touchAt(10));
    fireEvent.touchMove(list, touchAt(10 + PULL_TRIGGER * 2 + 20));
    fireEvent.touchEnd(list, { touches: [] });
    expect(onRefresh).toHaveBeenCalledTimes(1);

    // Scrolled down, the same move is the list scrolling back up.
    list.scrollTop = 200;
    fireEvent.touchStart(list, touchAt(10));
    fireEvent.touchMove(list, touchAt(10 + PULL_TRIGGER * 3));
    fireEvent.touchEnd(list, { touches: [] });
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });
});
