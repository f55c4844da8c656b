export { formatBytes } from '../../contract/format-bytes'
