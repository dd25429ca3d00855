// Where a small drop-down menu opens beside its button so that nothing of it is cut off: by
// default it grows from the button's inline-start edge toward the inline end (leftwards in
// Hebrew); when the clipping box (the nearest ancestor that hides overflow, else the window) has
// no room for it there, it grows the other way from the button's inline-end edge.

/** The box that would clip a menu opened inside `el`. */
function clipBox(el: HTMLElement): { left: number; right: number } {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflowX !== 'visible' || style.overflow !== 'visible') {
      const r = p.getBoundingClientRect();
      return { left: r.left, right: r.right };
    }
  }
  return { left: 0, right: window.innerWidth };
}

/** Whether a menu `width` px wide must open the other way (anchored at the button's inline end). */
export function opensReversed(button: HTMLElement, width: number): boolean {
  const rtl = getComputedStyle(button).direction === 'rtl';
  const b = button.getBoundingClientRect();
  const box = clipBox(button);
  const roomTowardEnd = rtl ? b.right - box.left : box.right - b.left;
  const roomTowardStart = rtl ? box.right - b.left : b.right - box.left;
  return roomTowardEnd < width && roomTowardStart > roomTowardEnd;
}
