// Pictures for slides: a drawn SVG (the execution tree, a heap graph) as a standalone SVG file
// or a PNG. The page styles its SVGs with CSS classes, so the copy gets every drawn element's
// computed paint and font written onto it; the copy is then independent of the page's styles
// (and of dark mode: exports are always drawn on a light background).

const STYLE_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
  'stroke-linecap', 'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor',
  'dominant-baseline', 'display', 'visibility'];

/**
 * A standalone SVG text of `svg`'s content inside `box` ({ x, y, width, height } in the content's
 * coordinates). `content` is the element whose children are drawn (its transform is dropped).
 */
export function standaloneSvg(svg, { content = svg, box, background = '#ffffff', pad = 12 } = {}) {
  const b = box ?? content.getBBox();
  const copy = svg.cloneNode(true);
  inlineStyles(svg, copy);
  const copiedContent = follow(copy, pathOf(svg, content));
  if (copiedContent && copiedContent !== copy) copiedContent.removeAttribute('transform');
  const x = b.x - pad;
  const y = b.y - pad;
  const width = Math.ceil(b.width + 2 * pad);
  const height = Math.ceil(b.height + 2 * pad);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('viewBox', `${x} ${y} ${width} ${height}`);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.removeAttribute('class');
  copy.removeAttribute('style');
  copy.removeAttribute('tabindex');
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  for (const [k, v] of Object.entries({ x, y, width, height, fill: background })) bg.setAttribute(k, String(v));
  copy.insertBefore(bg, copy.firstChild);
  return { text: new XMLSerializer().serializeToString(copy), width, height };
}

/** The child positions leading from `root` down to `el`. */
function pathOf(root, el) {
  const path = [];
  for (let n = el; n && n !== root; n = n.parentElement) path.unshift([...n.parentElement.children].indexOf(n));
  return path;
}

function follow(root, path) {
  let n = root;
  for (const i of path) n = n?.children[i];
  return n;
}

function inlineStyles(live, copy) {
  const a = [live, ...live.querySelectorAll('*')];
  const b = [copy, ...copy.querySelectorAll('*')];
  for (let i = 0; i < a.length && i < b.length; i++) {
    const cs = getComputedStyle(a[i]);
    const decl = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    b[i].setAttribute('style', decl);
    b[i].removeAttribute('class');
  }
}

/** Rasterizes SVG text to a PNG blob at `scale` (2: sharp on slides and high-DPI screens). */
export async function pngOf({ text, width, height }, scale = 2) {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  g.drawImage(img, 0, 0, width, height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the picture could not be drawn'))), 'image/png'));
}

/** Saves a blob as a download named `name`. */
export function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Downloads `svg` as `${stem}.svg` or `${stem}.png`. */
export async function exportPicture(svg, kind, stem, options) {
  const picture = standaloneSvg(svg, options);
  if (kind === 'svg') save(new Blob([picture.text], { type: 'image/svg+xml' }), `${stem}.svg`);
  else save(await pngOf(picture), `${stem}.png`);
}
