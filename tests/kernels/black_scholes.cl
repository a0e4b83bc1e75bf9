#include "gcn.h"
/* Black-Scholes option pricing (float and double) with our own exp/log and a polynomial
 * normal CDF; and a Monte Carlo path simulation with a Box-Muller generator. */

inline float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = 0.39894228f * native_exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}

kernel void black_scholes_f32(global float *call, global float *put, global const float *S, global const float *X,
                              global const float *T, float R, float V, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float s = S[i], x = X[i], t = T[i];
  float sqrtT = sqrt(t);
  float d1 = (native_log(s / x) + (R + 0.5f * V * V) * t) / (V * sqrtT);
  float d2 = d1 - V * sqrtT;
  float expRT = native_exp(-R * t);
  call[i] = s * cnd(d1) - x * expRT * cnd(d2);
  put[i] = x * expRT * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}

inline double dlog(double x) { /* log via frexp-style split and atanh series */
  ulong b = as_ulong(x);
  int e = (int)((b >> 52) & 0x7ff) - 1023;
  double m = as_double((b & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
  if (m > 1.41421356) { m *= 0.5; e++; }
  double t = (m - 1) / (m + 1), t2 = t * t;
  double s = t * (2.0 + t2 * (2.0 / 3 + t2 * (2.0 / 5 + t2 * (2.0 / 7 + t2 * (2.0 / 9 + t2 * (2.0 / 11))))));
  return s + e * 0.6931471805599453;
}
inline double dexp_(double x) {
  double k = floor(x * 1.4426950408889634 + 0.5);
  double r = x - k * 0.6931471805599453;
  double p = 1 + r * (1 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r / 5040))))));
  return p * as_double((ulong)((long)k + 1023) << 52);
}
inline double dcnd(double d) {
  double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double c = 0.3989422804014327 * dexp_(-0.5 * d * d) *
             (K * (0.31938153 + K * (-0.356563782 + K * (1.781477937 + K * (-1.821255978 + K * 1.330274429)))));
  return d > 0 ? 1.0 - c : c;
}
kernel void black_scholes_f64(global double *call, global const double *S, global const double *X, global const double *T,
                              double R, double V, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  double sqrtT = sqrt(T[i]);
  double d1 = (dlog(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrtT);
  double d2 = d1 - V * sqrtT;
  call[i] = S[i] * dcnd(d1) - X[i] * dexp_(-R * T[i]) * dcnd(d2);
}

kernel void mc_asian_option(global float *payoff, float S0, float K, float r, float sigma, float T, int steps, uint seed) {
  int i = get_global_id(0);
  uint s = seed ^ (i * 0x9E3779B9u);
  float dt = T / steps, drift = (r - 0.5f * sigma * sigma) * dt, vol = sigma * sqrt(dt);
  float S = S0, sum = 0.0f;
  for (int k = 0; k < steps; k += 2) {
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    float u1 = (s >> 8) * 0x1.0p-24f + 0x1.0p-25f;
    s ^= s << 13; s ^= s >> 17; s ^= s << 5;
    float u2 = (s >> 8) * 0x1.0p-24f;
    float rad = sqrt(-2.0f * native_log(u1));
    float c, sn = gcn_sincos(6.2831853f * u2, &c);
    S *= native_exp(drift + vol * rad * c);
    sum += S;
    S *= native_exp(drift + vol * rad * sn);
    sum += S;
  }
  payoff[i] = native_exp(-r * T) * fmax(sum / steps - K, 0.0f);
}
