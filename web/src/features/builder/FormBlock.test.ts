import { describe, expect, it } from 'vitest';
import { getPath, readFields } from './FormBlock';

describe('the form block', () => {
  it('finds the error message at errorMessagePath, as lodash get does', () => {
    const body = { error: { message: 'השם תפוס', list: [{ why: 'x' }] } };
    expect(getPath(body, 'error.message')).toBe('השם תפוס');
    expect(getPath(body, 'error.list[0].why')).toBe('x');
    expect(getPath(body, 'error.nothing.here')).toBeUndefined();
    expect(getPath('text', 'error')).toBeUndefined();
  });

  it('reads inputs as the SDK does: named only, checked radios, numbers and checkboxes typed', () => {
    const form = document.createElement('form');
    form.innerHTML = `
      <input name="name" value="דנה">
      <input value="no name">
      <input name="age" type="number" value="30">
      <input name="agree" type="checkbox" checked>
      <input name="color" type="radio" value="red">
      <input name="color" type="radio" value="blue" checked>
      <select name="city"><option value="חיפה" selected>חיפה</option></select>
      <textarea name="note">שלום</textarea>`;
    expect(readFields(form)).toEqual([
      { key: 'name', value: 'דנה' },
      { key: 'age', value: 30 },
      { key: 'agree', value: true },
      { key: 'color', value: 'blue' },
      { key: 'city', value: 'חיפה' },
      { key: 'note', value: 'שלום' },
    ]);
  });
});
