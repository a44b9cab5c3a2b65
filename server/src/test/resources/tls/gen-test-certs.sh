#!/usr/bin/env bash
# Regenerates the TLS test certificates (as Redis's utils/gen-test-certs.sh does): a CA, a server
# certificate for localhost/127.0.0.1, a client certificate, an unrelated CA (for "untrusted" cases),
# an encrypted copy of the server key (password "ebbpass") and a PKCS#1 copy. Valid for 100 years.
set -euo pipefail
cd "$(dirname "$0")"
days=36500
openssl genrsa -out ca.key 2048 2>/dev/null
openssl req -x509 -new -nodes -sha256 -key ca.key -days $days -subj '/O=Ebb Test/CN=Ebb Test CA' -out ca.crt
openssl genrsa -out other-ca.key 2048 2>/dev/null
openssl req -x509 -new -nodes -sha256 -key other-ca.key -days $days -subj '/O=Other/CN=Other CA' -out other-ca.crt
sign() { # name subject extfile-lines key-ca crt-ca
  openssl genrsa -out "$1.key" 2048 2>/dev/null
  printf '%b' "$3" > "$1.ext"
  openssl req -new -sha256 -key "$1.key" -subj "$2" -out "$1.csr"
  openssl x509 -req -sha256 -in "$1.csr" -CA "$5" -CAkey "$4" -CAcreateserial -days $days -extfile "$1.ext" \
    -out "$1.crt" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}
sign server '/O=Ebb Test/CN=localhost' 'keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n' ca.key ca.crt
sign client '/O=Ebb Test/CN=client' 'keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n' ca.key ca.crt
sign stranger '/O=Other/CN=stranger' 'keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n' other-ca.key other-ca.crt
openssl pkcs8 -topk8 -v2 aes-256-cbc -in server.key -passout pass:ebbpass -out server-encrypted.key
openssl rsa -in server.key -traditional -out server-pkcs1.key 2>/dev/null
rm -f ca.srl other-ca.srl other-ca.key
