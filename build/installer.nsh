; "Open with > Dubdesk" on Windows: the video and audio types Dubdesk dubs list it among their programs
; (OpenWithProgids), without making it their default app. NSIS `fileAssociations` would take the default,
; and electron-builder only writes them for per-machine installs. Included by electron-builder's NSIS
; script (nsis.include in electron-builder.yml); SHCTX is HKCU for this per-user install.
!define DUBDESK_PROGID "Dubdesk.Media"

!macro dubdeskOpenWith EXT
  WriteRegStr SHCTX "Software\Classes\.${EXT}\OpenWithProgids" "${DUBDESK_PROGID}" ""
  WriteRegStr SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}\SupportedTypes" ".${EXT}" ""
!macroend

!macro dubdeskForgetOpenWith EXT
  DeleteRegValue SHCTX "Software\Classes\.${EXT}\OpenWithProgids" "${DUBDESK_PROGID}"
!macroend

!macro customInstall
  WriteRegStr SHCTX "Software\Classes\${DUBDESK_PROGID}" "" "Video or audio to dub"
  WriteRegStr SHCTX "Software\Classes\${DUBDESK_PROGID}\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\${DUBDESK_PROGID}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
  WriteRegStr SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
  !insertmacro dubdeskOpenWith "mp4"
  !insertmacro dubdeskOpenWith "m4v"
  !insertmacro dubdeskOpenWith "mov"
  !insertmacro dubdeskOpenWith "mkv"
  !insertmacro dubdeskOpenWith "webm"
  !insertmacro dubdeskOpenWith "avi"
  !insertmacro dubdeskOpenWith "mp3"
  !insertmacro dubdeskOpenWith "m4a"
  !insertmacro dubdeskOpenWith "wav"
  ; Explorer reads the new associations now, not at the next sign-in.
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend

!macro customUnInstall
  !insertmacro dubdeskForgetOpenWith "mp4"
  !insertmacro dubdeskForgetOpenWith "m4v"
  !insertmacro dubdeskForgetOpenWith "mov"
  !insertmacro dubdeskForgetOpenWith "mkv"
  !insertmacro dubdeskForgetOpenWith "webm"
  !insertmacro dubdeskForgetOpenWith "avi"
  !insertmacro dubdeskForgetOpenWith "mp3"
  !insertmacro dubdeskForgetOpenWith "m4a"
  !insertmacro dubdeskForgetOpenWith "wav"
  DeleteRegKey SHCTX "Software\Classes\${DUBDESK_PROGID}"
  DeleteRegKey SHCTX "Software\Classes\Applications\${APP_EXECUTABLE_FILENAME}"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend
