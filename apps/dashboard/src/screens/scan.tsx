import { useEffect, useRef, useState } from 'preact/hooks';
import { currentKeys, stateNow, tokenIn, verifyHere, type CheckAnswer, type LocalVerdict } from '../certificate-check';
import { words as w } from '../i18n';
import { dateTime, day, Title } from '../ui';

// Checking a vehicle certificate with the phone's camera: the browser's BarcodeDetector where it has one (Android,
// macOS), else jsQR on camera frames; a link typed or pasted works too. The signature is checked on this device
// (certificate-check.ts), then the state as of now is asked for when there is a signal.

/** The parts of the Shape Detection API used here (not yet in TypeScript's DOM types). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

/** The QR reader for camera frames: the browser's own when it reads QR codes, else jsQR on a canvas. */
async function qrReader(): Promise<(video: HTMLVideoElement) => Promise<string | undefined>> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector && (await Detector.getSupportedFormats().catch((): string[] => [])).includes('qr_code')) {
    const detector = new Detector({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video))[0]?.rawValue;
  }
  // jsQR (about 130 kB) is fetched only here, not with every dashboard load.
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    if (!context || video.videoWidth === 0) return undefined;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    context.drawImage(video, 0, 0);
    const frame = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' })?.data;
  };
}

/** The camera while it is on: frames read every quarter second until one holds a QR code. */
export function Camera({ found, failed }: { found: (text: string) => void; failed: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        if (!live || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        const read = await qrReader();
        const next = async () => {
          if (!live || !video.current) return;
          const text = await read(video.current).catch(() => undefined);
          if (text && live) found(text);
          else timer = setTimeout(next, 250);
        };
        await next();
      } catch {
        if (live) failed();
      }
    })();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);
  return (
    <figure class="camera">
      <video ref={video} muted playsInline aria-label={w.scan.aim} />
      <figcaption>{w.scan.aim}</figcaption>
    </figure>
  );
}

interface Outcome {
  local: LocalVerdict;
  keysFetchedAt?: string;
  /** The service's answer; undefined without a signal. */
  now?: CheckAnswer;
}

async function checkToken(token: string): Promise<Outcome> {
  const keys = await currentKeys();
  const local = await verifyHere(token, keys?.keys ?? []);
  return { local, keysFetchedAt: keys?.fetchedAt, now: await stateNow(token) };
}

/** The verdict: the service's when it answered (it knows withdrawals and expiry), else this device's. */
function Verdict({ outcome }: { outcome: Outcome }) {
  const { local, now } = outcome;
  // Offline, a key the phone does not hold may be one made after its keys were fetched: that is not "not genuine".
  const why = local.genuine === true ? undefined : local.reason;
  const unknowable = why === 'no_keys' || why === 'unknown_key';
  const state = now?.state ?? (local.genuine ? 'genuine' : unknowable ? 'cannot_check' : 'not_genuine');
  const reason = now ? now.reason : why === 'unknown_key' ? 'key_not_kept' : why;
  const expired = (now?.expiredDocuments ?? []).map((d) => w.scan.documents[d] ?? d).join(', ');
  const explanation =
    state === 'genuine'
      ? w.scan.explain.offline
      : state === 'expired'
        ? w.scan.explain.expired(expired)
        : w.scan.explain[state as 'valid' | 'withdrawn' | 'not_genuine' | 'cannot_check'];
  const plate = now?.vehicle?.registrationNumber ?? (local.genuine ? local.plate : undefined);
  const v = now?.state === 'valid' || now?.state === 'expired' ? now.vehicle : undefined;
  return (
    <section class={`verdict ${state}`} aria-labelledby="verdict-title" role="status">
      <h2 id="verdict-title">{w.scan.states[state]}</h2>
      <p>{explanation}</p>
      {reason && <p>{w.scan.reasons[reason] ?? reason}</p>}
      {plate && state !== 'not_genuine' && state !== 'cannot_check' && (
        <dl class="facts">
          <dt>{w.scan.plate}</dt>
          <dd class="plate">{plate}</dd>
          {v?.make && (
            <>
              <dt>{w.scan.make}</dt>
              <dd>{[v.make, v.model].filter(Boolean).join(' ')}</dd>
            </>
          )}
          {v?.color && (
            <>
              <dt>{w.scan.color}</dt>
              <dd>{v.color}</dd>
            </>
          )}
          {v?.transportUnion && (
            <>
              <dt>{w.scan.union}</dt>
              <dd>{v.transportUnion}</dd>
            </>
          )}
          {v?.station && (
            <>
              <dt>{w.scan.station}</dt>
              <dd>{v.station}</dd>
            </>
          )}
          {now?.driver !== undefined && (
            <>
              <dt>{w.scan.driver}</dt>
              <dd>{now.driver ? `${now.driver.firstName}, ${w.scan.rating(now.driver.rating)}` : w.scan.noDriver}</dd>
            </>
          )}
        </dl>
      )}
      {now?.documents && (
        <ul class="documents">
          {now.documents.map((d) => (
            <li key={d.document} class={d.expired ? 'ended' : undefined}>
              {w.scan.until(w.scan.documents[d.document] ?? d.document, day(d.expiresOn), d.expired)}
            </li>
          ))}
        </ul>
      )}
      <p class="small">
        {local.genuine && `${w.scan.printed(day(local.issuedAt))}. `}
        {why !== 'no_keys' && w.scan.signedOnDevice}{' '}
        {outcome.keysFetchedAt && w.scan.keysFrom(dateTime(outcome.keysFetchedAt))}{' '}
        {now ? w.scan.fromServer(dateTime(now.checkedAt)) : w.scan.noSignal}
      </p>
    </section>
  );
}

const STYLE = `
.camera{margin:0 0 1rem}
.camera video{width:100%;max-width:28rem;aspect-ratio:1;object-fit:cover;background:#111;border-radius:.5rem;display:block}
.verdict{border-radius:.6rem;padding:1rem;margin:1rem 0}
.verdict h2{margin:0 0 .4rem;font-size:1.6rem}
.verdict .facts{background:#fff;color:#111;border-radius:.4rem;padding:.5rem}
.verdict .plate{font-size:1.3rem;font-weight:700;letter-spacing:.04em}
.verdict .documents{background:#fff;color:#111;border-radius:.4rem;padding:.5rem .5rem .5rem 1.5rem}
.verdict .documents .ended{color:#8a1010;font-weight:600}
.verdict .small{font-size:.9rem}
.verdict.valid{background:#0b6b2e;color:#fff}
.verdict.genuine{background:#1d4f91;color:#fff}
.verdict.expired{background:#ffd166;color:#1a1300}
.verdict.withdrawn{background:#a61b1b;color:#fff}
.verdict.not_genuine{background:#111;color:#fff}
.verdict.cannot_check{background:#4a4a4a;color:#fff}`;

export function ScanScreen() {
  const [camera, setCamera] = useState(false);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [text, setText] = useState('');

  const check = async (given: string) => {
    setCamera(false);
    setText(given);
    const token = tokenIn(given);
    setOutcome(token ? await checkToken(token) : { local: { genuine: false, reason: 'malformed' }, now: undefined });
  };

  return (
    <>
      <style>{STYLE}</style>
      <Title>{w.scan.title}</Title>
      <p>{w.scan.intro}</p>
      {camera ? (
        <>
          <Camera
            found={check}
            failed={() => {
              setCamera(false);
              setCameraFailed(true);
            }}
          />
          <button type="button" class="button" onClick={() => setCamera(false)}>
            {w.scan.stopCamera}
          </button>
        </>
      ) : (
        <button
          type="button"
          class="button primary"
          onClick={() => {
            setOutcome(undefined);
            setCameraFailed(false);
            setCamera(true);
          }}
        >
          {outcome ? w.scan.again : w.scan.startCamera}
        </button>
      )}
      {cameraFailed && (
        <p class="alert error" role="alert">
          {w.scan.noCamera}
        </p>
      )}
      {outcome && <Verdict outcome={outcome} />}
      <form
        class="panel"
        onSubmit={(event) => {
          event.preventDefault();
          void check(text);
        }}
      >
        <label for="certificate-link">{w.scan.paste}</label>
        <input
          id="certificate-link"
          name="link"
          autoComplete="off"
          value={text}
          onInput={(event) => setText((event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="button">
          {w.scan.check}
        </button>
      </form>
    </>
  );
}
