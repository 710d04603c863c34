/**
 * A short low tone: a scanner desk's "not this one", heard while the eyes are on the tubes. Made with
 * the Web Audio API (no sound file to fetch); after a scan (a key press) the browser lets a page play.
 */
const TONE_HZ = 330;
const TONE_SECONDS = 0.25;

let context: AudioContext | undefined;

export function refusalBeep(): void {
  if (typeof AudioContext === 'undefined') return;
  try {
    context ??= new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = TONE_HZ;
    gain.gain.value = 0.1;
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + TONE_SECONDS);
  } catch {
    // No sound where the browser allows none: the message and the tally still say it.
  }
}
