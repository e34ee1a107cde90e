import { Client, Storage, ID } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { randomBytes } from 'node:crypto';
const ep='http://127.0.0.1:18931/v1';
const c = new Client().setEndpoint(ep).setProject('livedesk').setKey('smoke-key-0123456789abcdef');
const s = new Storage(c);
const b = await s.createBucket({ bucketId: ID.unique(), name: 'b' });
const big = randomBytes(200 * 1024 * 1024);
for (let i=0;i<2;i++){
let t = performance.now();
await s.createFile({ bucketId: b.$id, fileId: ID.unique(), file: InputFile.fromBuffer(big, 'big.bin') });
console.log('sdk', (200*1.048576/((performance.now()-t)/1000)).toFixed(1), 'MB/s');
t = performance.now();
const form = new FormData(); form.append('fileId', ID.unique()); form.append('file', new File([big], 'big.bin'));
const r = await fetch(`${ep}/storage/buckets/${b.$id}/files`, {method:'POST', body: form, headers: {'x-appwrite-project':'livedesk','x-appwrite-key':'smoke-key-0123456789abcdef'}});
await r.json();
console.log('plain', r.status, (200*1.048576/((performance.now()-t)/1000)).toFixed(1), 'MB/s');
}
