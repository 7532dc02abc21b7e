/**
 * The system's proxy reaches the engine (issue 30, review item 13): Chromium resolves it (OS settings, WPAD,
 * PAC), and the engine's Node HTTP gets it as HTTPS_PROXY; a proxy the user named wins, DIRECT adds nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { proxyUrlOf, systemProxyEnv } from '../../../electron/main/system-proxy';

describe('the system proxy', () => {
  it('reads the first usable entry of a PAC answer', () => {
    expect(proxyUrlOf('PROXY proxy.corp:3128; DIRECT')).toBe('http://proxy.corp:3128');
    expect(proxyUrlOf('SOCKS5 socks.corp:1080; HTTPS secure.corp:443')).toBe('https://secure.corp:443');
    expect(proxyUrlOf('DIRECT')).toBeNull();
    expect(proxyUrlOf('')).toBeNull();
  });

  it('is handed to the engine for the service’s address, keeping loopback direct', async () => {
    const resolve = vi.fn(async () => 'PROXY proxy.corp:3128; DIRECT');
    expect(await systemProxyEnv(resolve, { DUBDESK_BASE_URL: 'https://api.dubbing.example' })).toEqual({
      HTTPS_PROXY: 'http://proxy.corp:3128',
      HTTP_PROXY: 'http://proxy.corp:3128',
      NO_PROXY: 'localhost',
    });
    expect(resolve).toHaveBeenCalledWith('https://api.dubbing.example');
  });

  it('leaves a proxy the user named alone, and adds nothing for DIRECT or a failed lookup', async () => {
    const resolve = vi.fn(async () => 'PROXY proxy.corp:3128');
    expect(await systemProxyEnv(resolve, { https_proxy: 'http://mine:8080' })).toEqual({});
    expect(resolve).not.toHaveBeenCalled();
    expect(await systemProxyEnv(async () => 'DIRECT', {})).toEqual({});
    expect(await systemProxyEnv(() => Promise.reject(new Error('no PAC')), {})).toEqual({});
  });
});
