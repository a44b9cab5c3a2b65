package dev.ebb.server.cluster;

/** Literal IP addresses as Redis prints them: IPv4 dotted, IPv6 compressed (RFC 5952), no host names. */
final class IpAddresses {
    private IpAddresses() {
    }

    /** A literal ip in canonical form, or null if {@code ip} is not one (host names are refused, as Redis). */
    static String normalize(String ip) {
        if (ip.isEmpty() || !(ip.indexOf(':') >= 0 || ip.matches("[0-9.]+"))) {
            return null;
        }
        try {
            java.net.InetAddress a = java.net.InetAddress.getByName(ip);
            String s = a.getHostAddress();
            if (a instanceof java.net.Inet6Address) {
                int pct = s.indexOf('%');
                s = java.net.InetAddress.getByName(pct >= 0 ? s.substring(0, pct) : s).getHostAddress();
                s = compressIpv6(s);
            }
            return s;
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    private static String compressIpv6(String full) {
        try {
            byte[] b = java.net.InetAddress.getByName(full).getAddress();
            int[] w = new int[8];
            for (int i = 0; i < 8; i++) {
                w[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
            }
            int bestStart = -1;
            int bestLen = 0;
            for (int i = 0; i < 8;) {
                if (w[i] != 0) {
                    i++;
                    continue;
                }
                int j = i;
                while (j < 8 && w[j] == 0) {
                    j++;
                }
                if (j - i > bestLen && j - i > 1) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                if (i == bestStart) {
                    sb.append(i == 0 ? "::" : ":");
                    i += bestLen - 1;
                    continue;
                }
                sb.append(Integer.toHexString(w[i]));
                if (i < 7) {
                    sb.append(':');
                }
            }
            return sb.toString();
        } catch (java.net.UnknownHostException e) {
            return full;
        }
    }
}
