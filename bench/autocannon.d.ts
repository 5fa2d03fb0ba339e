// The part of autocannon 9 the benchmarks use (the package ships no types).
declare module 'autocannon' {
  type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Context = Record<string, unknown>;
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests a second of this instance in all, where it would otherwise send as fast as answered. */
    overallRate?: number;
    timeout?: number;
    requests?: (Request & {
      setupRequest?: (request: Request, context: Context) => Request;
      onResponse?: (status: number, body: string, context: Context) => void;
    })[];
  };
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number; total: number };
  export type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
