import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

// The browser app lives in src/web; its build lands in dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  // Brotli and gzip copies of every asset, made once at build time at the best ratio, which the server
  // sends by content negotiation (app.ts, preCompressed): no CPU spent per request on static files.
  plugins: [react(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024 })],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: {
      '/api/websocket': { target: 'ws://127.0.0.1:8080', ws: true },
      '/api': 'http://127.0.0.1:8080',
      '/oauth': 'http://127.0.0.1:8080',
    },
  },
});
