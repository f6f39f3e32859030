// @peculiar/x509 resolves its algorithms through tsyringe, which refuses to load unless
// the Metadata Reflection API exists. Import this before @peculiar/x509 anywhere.
import 'reflect-metadata';
