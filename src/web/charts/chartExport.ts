import type { ScreenSchema } from '../../shared/screens/fields';
import { http } from '../api/http';
import { queryOf } from '../screens/dataProvider';
import type { ListParams } from '../screens/dataProvider';

/** The statistic's own table as the server makes it (.xlsx), when the chart is a statistic's: its query, all rows. */
export function tableExportUrl(screen: ScreenSchema): string | undefined {
  const list = screen.endpoints?.list;
  return list?.startsWith('/api/statistics/') ? `${list}/export.xlsx` : undefined;
}

export async function exportTable(url: string, params: ListParams): Promise<Blob> {
  const { data } = await http.get<Blob>(url, { params: queryOf(params), responseType: 'blob' });
  return data;
}

/** An SVG element drawn as an image (its fonts as the page has them). */
function imageOf(svg: SVGSVGElement): Promise<{ image: HTMLImageElement; width: number; height: number }> {
  const { width, height } = svg.getBoundingClientRect();
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  const url = URL.createObjectURL(
    new Blob([new XMLSerializer().serializeToString(copy)], { type: 'image/svg+xml;charset=utf-8' }),
  );
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve({ image, width, height });
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('chart image'));
    };
    image.src = url;
  });
}

/**
 * The chart's picture as a PNG: each panel's SVG (the charts draw SVG) drawn on a white canvas, one
 * under the other, at twice the screen's resolution so that it prints sharp.
 */
export async function chartPng(svgs: SVGSVGElement[]): Promise<Blob> {
  const images = await Promise.all(svgs.map(imageOf));
  const scale = 2;
  const width = Math.max(1, ...images.map((i) => i.width));
  const height = Math.max(
    1,
    images.reduce((h, i) => h + i.height, 0),
  );
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const context = canvas.getContext('2d')!;
  context.scale(scale, scale);
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  let y = 0;
  for (const { image, width: w, height: h } of images) {
    context.drawImage(image, 0, y, w, h);
    y += h;
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('chart png'))), 'image/png'),
  );
}
