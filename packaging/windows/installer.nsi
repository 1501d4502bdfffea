; The installer's NSIS script, a pynsist template (jinja2, with square brackets for its markers: NSIS uses braces).
; Made from pynsist 2.8's pyapp.nsi, changed where this program needs it:
; - installed for the current user at the standard execution level: no administrator rights, no UAC prompt
;   (pynsist's own template asks for them with MULTIUSER_EXECUTIONLEVEL Highest), into %LOCALAPPDATA%\Programs;
; - the entry "双升级比赛" in the Start menu and on the desktop (it runs shuangsheng/cli/launch.py);
; - Chinese pages;
; - the uninstaller removes only what the installer put there: never the events under Documents\双升级比赛.
!define PRODUCT_NAME "[[ib.appname]]"
!define PRODUCT_VERSION "[[ib.version]]"
!define PY_VERSION "[[ib.py_version]]"
!define PY_MAJOR_VERSION "[[ib.py_major_version]]"
!define BITNESS "[[ib.py_bitness]]"
!define ARCH_TAG "[[arch_tag]]"
!define INSTALLER_NAME "[[ib.installer_name]]"
!define PRODUCT_ICON "[[icon]]"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${PRODUCT_NAME}"

SetCompressor lzma
Unicode true
ManifestDPIAware true
RequestExecutionLevel user

!include FileFunc.nsh
!include "MUI2.nsh"
!define MUI_ABORTWARNING
!define MUI_ICON "[[icon]]"
!define MUI_UNICON "[[icon]]"
!insertmacro MUI_PAGE_WELCOME
[% if license_file %]
!insertmacro MUI_PAGE_LICENSE [[license_file]]
[% endif %]
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "SimpChinese"

Name "${PRODUCT_NAME} ${PRODUCT_VERSION}"
OutFile "${INSTALLER_NAME}"
InstallDir "$LOCALAPPDATA\Programs\${PRODUCT_NAME}"
ShowInstDetails show

Section "!${PRODUCT_NAME}" sec_app
  SetShellVarContext current
  SetRegView [[ib.py_bitness]]
  SectionIn RO
  SetOutPath "$INSTDIR"
  SetOverwrite on
  File ${PRODUCT_ICON}

  ; The packages of an earlier version go first, so none of its files is left among the new ones
  RMDir /r "$INSTDIR\pkgs"
  SetOutPath "$INSTDIR\pkgs"
  File /r "pkgs\*.*"
  SetOutPath "$INSTDIR"

  ; Install files
  [% for destination, group in grouped_files %]
    SetOutPath "[[destination]]"
    [% for file in group %]
      File "[[ file ]]"
    [% endfor %]
  [% endfor %]

  ; Install directories
  [% for dir, destination in ib.install_dirs %]
    SetOutPath "[[ pjoin(destination, dir) ]]"
    File /r "[[dir]]\*.*"
  [% endfor %]

  ; The entry in the Start menu and on the desktop; the working folder of a shortcut is its output path
  SetOutPath "$PROFILE"
  [% for scname, sc in ib.shortcuts.items() %]
    CreateShortCut "$SMPROGRAMS\[[scname]].lnk" "[[sc['target'] ]]" \
      '[[ sc['parameters'] ]]' "$INSTDIR\[[ sc['icon'] ]]"
    CreateShortCut "$DESKTOP\[[scname]].lnk" "[[sc['target'] ]]" \
      '[[ sc['parameters'] ]]' "$INSTDIR\[[ sc['icon'] ]]"
  [% endfor %]
  SetOutPath "$INSTDIR"

  [% if has_commands %]
    DetailPrint "把 shuangsheng 命令加入当前用户的 PATH……"
    nsExec::ExecToLog '[[ python ]] -Es "$INSTDIR\_system_path.py" add_user "$INSTDIR\bin"'
  [% endif %]

  DetailPrint "预编译 Python 模块……"
  nsExec::ExecToLog '[[ python ]] -m compileall -q "$INSTDIR\pkgs"'
  WriteUninstaller "$INSTDIR\uninstall.exe"
  ; Apps & features ("应用和功能") of this user
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${PRODUCT_NAME}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${PRODUCT_ICON}"
  [% if ib.publisher is not none %]
    WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "[[ib.publisher]]"
  [% endif %]
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${PRODUCT_VERSION}"
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
SectionEnd

; Removes the program's own files only: the events (Documents\双升级比赛) are the organiser's and stay.
Section "Uninstall"
  SetShellVarContext current
  SetRegView [[ib.py_bitness]]
  [% if has_commands %]
    nsExec::ExecToLog '[[ python ]] -Es "$INSTDIR\_system_path.py" remove "$INSTDIR\bin"'
  [% endif %]
  Delete "$INSTDIR\uninstall.exe"
  Delete "$INSTDIR\${PRODUCT_ICON}"
  RMDir /r "$INSTDIR\pkgs"
  [% for file, destination in ib.install_files %]
    Delete "[[pjoin(destination, file)]]"
  [% endfor %]
  [% for dir, destination in ib.install_dirs %]
    RMDir /r "[[pjoin(destination, dir)]]"
  [% endfor %]
  [% for scname in ib.shortcuts %]
    Delete "$SMPROGRAMS\[[scname]].lnk"
    Delete "$DESKTOP\[[scname]].lnk"
  [% endfor %]
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
SectionEnd
