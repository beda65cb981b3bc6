import { categoryCell } from '../transfer/catalog';
import { csvLine } from '../transfer/csv';
import { safeName, UniqueNames } from './file-names';

describe('export file names', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['.hidden', 'hidden'],
    ['what?<now>:*|".txt', 'what__now_____.txt'],
    ['tab\there\u0007.jpg', 'tab_here_.jpg'],
    ['trailing. . ', 'trailing'],
    ['CON.txt', '_CON.txt'],
    ['', 'asset-7'],
    ['../', 'asset-7'],
  ])('%j is written as %j', (raw, expected) => {
    expect(safeName(raw, 'asset-7')).toBe(expected);
  });

  it('cuts long names to 200 bytes, keeping the extension', () => {
    const name = safeName(`${'é'.repeat(300)}.jpeg`, 'x');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
    expect(name.endsWith('é.jpeg')).toBe(true);
  });

  it('makes names unique ignoring case, and never takes a reserved one', () => {
    const names = new UniqueNames(['manifest.csv']);
    expect(['a.jpg', 'A.JPG', 'a.jpg', 'Manifest.csv', 'noext', 'noext'].map((n) => names.claim(n))).toEqual([
      'a.jpg',
      'A (2).JPG',
      'a (3).jpg',
      'Manifest (2).csv',
      'noext',
      'noext (2)',
    ]);
  });

  it('writes a name path made of digits with a leading slash, and quotes CSV fields that need it', () => {
    expect([categoryCell(['2024']), categoryCell(['Trips', '2024'])]).toEqual(['/2024', 'Trips/2024']);
    expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', ' edge'])).toBe(
      'plain,"a,b","say ""hi""","two\nlines"," edge"',
    );
  });
});
