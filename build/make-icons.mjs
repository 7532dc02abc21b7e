// `npm run icons`: renders build/icon.svg into the icon set electron-builder packs (PNG 16..1024 for
// Linux, .ico for Windows, .icns for macOS) and the tray icons. The outputs are committed.
import { Resvg } from '@resvg/resvg-js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import png2icons from 'png2icons';

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const render = (svg, size) =>
  new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng();

const icon = readFileSync('build/icon.svg', 'utf8');
mkdirSync('build/icons', { recursive: true });
for (const size of SIZES) writeFileSync(`build/icons/${size}x${size}.png`, render(icon, size));
const master = render(icon, 1024);
writeFileSync('build/icon.png', master);
writeFileSync('build/icon.icns', png2icons.createICNS(master, png2icons.BICUBIC2, 0));
writeFileSync('build/icon.ico', png2icons.createICO(master, png2icons.BICUBIC2, 0, false, true));

const tray = readFileSync('build/tray.svg', 'utf8');
mkdirSync('build/tray', { recursive: true });
writeFileSync('build/tray/trayTemplate.png', render(tray, 16));
writeFileSync('build/tray/trayTemplate@2x.png', render(tray, 32));
console.log('icons written to build/');
