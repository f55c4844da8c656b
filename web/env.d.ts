/// <reference types="vite/client" />

declare const __DEV_TOOLS__: boolean
