/**
 * `200000` → `200,000`, as `toLocaleString('en')` writes it, without Intl: the contracts build these
 * texts when they load, and Intl's first use reads about 6 MB of ICU's locale data into the process.
 */
export function groupedDigits(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = (whole ?? '').replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
