import { safeEntryName, uniqueEntryNames } from './zip-names';

describe('ZIP entry names', () => {
  it.each([
    ['photo.jpg', 'photo.jpg'],
    ['../x', '.._x'],
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['/abs/path.txt', '_abs_path.txt'],
    ['C:\\Windows\\x.dll', 'C__Windows_x.dll'],
    ['..', 'file'],
    ['.', 'file'],
    ['', 'file'],
    ['   ', 'file'],
    ['a\u0000b\nc', 'a_b_c'],
    ['what?.txt', 'what_.txt'],
    ['trailing. . ', 'trailing'],
    ['été.png', 'été.png'],
  ])('%p is %p', (given, expected) => {
    expect(safeEntryName(given)).toBe(expected);
  });

  it('cuts long names, keeping the extension', () => {
    const name = safeEntryName(`${'a'.repeat(300)}.jpeg`);
    expect(name).toHaveLength(200);
    expect(name.endsWith('.jpeg')).toBe(true);
  });

  it('makes names unique without regard to case, before the extension', () => {
    expect(uniqueEntryNames(['a.jpg', 'A.jpg', 'a.jpg', 'a (2).jpg', 'b', 'b', '../x', '.._x'])).toEqual([
      'a.jpg',
      'A (2).jpg',
      'a (3).jpg',
      'a (2) (2).jpg',
      'b',
      'b (2)',
      '.._x',
      '.._x (2)',
    ]);
  });
});
